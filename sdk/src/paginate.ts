/**
 * Paging through any list: each list answers `count`, `next` (the absolute URL of the next page, or
 * null), `previous` and `results`; the iterator asks for the page `next` names until there is none.
 */
import type { Client, MaybeOptionalInit } from "openapi-fetch";
import { ApiProblem } from "./problem.js";

type Page = { count: number; next: string | null; previous: string | null; results: unknown[] };
type OkBody<Op> = Op extends { responses: { 200: { content: { "application/json": infer B } } } } ? B : never;
type GetOf<Item> = Item extends { get: infer Op } ? Op : never;

/** The paths whose GET answers a page of a list. */
export type ListPath<Paths> = {
  [P in keyof Paths]: OkBody<GetOf<Paths[P]>> extends Page ? P : never;
}[keyof Paths];
/** The page a list path answers. */
export type PageOf<Paths, P extends keyof Paths> = OkBody<GetOf<Paths[P]>> & Page;
/** One result of a list path's pages. */
export type ItemOf<Paths, P extends keyof Paths> = PageOf<Paths, P>["results"][number];
/** What the list's GET takes (its query, path parameters, headers). */
export type ListInit<Paths, P extends keyof Paths> = Paths[P] extends { get: unknown }
  ? MaybeOptionalInit<Paths[P], "get">
  : never;

/** The items of every page, one by one; `.pages()` gives the pages themselves. */
export type Paginated<Page, Item> = AsyncIterable<Item> & { pages(): AsyncIterable<Page> };

type Init = { params?: { query?: Record<string, unknown> } & Record<string, unknown> } & Record<string, unknown>;
type Get = (path: string, init: Init) => Promise<{ data?: Page; error?: unknown; response: Response }>;

export function paginator<Paths extends {}>(client: Client<Paths>) {
  return function paginate<P extends ListPath<Paths> & string>(
    path: P,
    init?: ListInit<Paths, P>,
  ): Paginated<PageOf<Paths, P>, ItemOf<Paths, P>> {
    const get = client.GET as unknown as Get;
    const first = (init ?? {}) as Init;
    async function* pages(): AsyncGenerator<PageOf<Paths, P>> {
      let page: number | undefined;
      for (;;) {
        const query = page === undefined ? first.params?.query : { ...first.params?.query, page };
        const { data, error, response } = await get(path, { ...first, params: { ...first.params, query } });
        if (!response.ok || !data) throw ApiProblem.from(error, response);
        yield data as PageOf<Paths, P>;
        if (!data.next) return;
        const next = Number(new URL(data.next).searchParams.get("page"));
        // A `next` that does not move forward would loop for ever: stop rather than ask again.
        if (!Number.isSafeInteger(next) || next <= (page ?? 1)) return;
        page = next;
      }
    }
    return {
      pages,
      async *[Symbol.asyncIterator]() {
        for await (const p of pages()) yield* p.results as ItemOf<Paths, P>[];
      },
    };
  };
}
