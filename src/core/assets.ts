/**
 * Data the Worker reads from its static assets rather than carrying in its bundle (the PDFs' font,
 * the phone numbering plans): fetched through the ASSETS binding on first use, parsed once per
 * isolate. Assets deploy with the Worker's version, so a file always matches the code reading it.
 */

/** The ASSETS binding, as far as these loads need it. */
export type AssetFetcher = { fetch(request: Request): Promise<Response> };

/**
 * A loader of the asset at `path` (under the assets directory), parsed by `parse`: the first call
 * fetches it, the others share that load; a failed load is not kept, so the next call tries again.
 */
export function assetLoader<T>(path: string, parse: (json: unknown) => T): (assets: AssetFetcher) => Promise<T> {
  let cached: Promise<T> | undefined;
  return (assets) => {
    if (cached) return cached;
    const loading = (async () => {
      const res = await assets.fetch(new Request(`https://assets.invalid${path}`));
      if (!res.ok) throw new Error(`The asset ${path} answered ${res.status}: see scripts/docs-assets.ts`);
      return parse(await res.json());
    })();
    cached = loading;
    loading.catch(() => {
      if (cached === loading) cached = undefined;
    });
    return loading;
  };
}
