import { vi } from "vitest";

export type Received = { url: string; method: string; redirect: string; headers: Record<string, string>; body: string };

/**
 * Stands in for webhook receivers: replaces fetch, records every request (read inside the call,
 * as workerd requires) and answers with what `answer` returns for it.
 */
export function fakeReceiver(
  answer: (req: Received, n: number) => Response | Promise<Response> = () => new Response("ok"),
) {
  const received: Received[] = [];
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const req = new Request(input as RequestInfo, init);
    const r: Received = {
      url: req.url,
      method: req.method,
      redirect: init?.redirect ?? "follow",
      headers: Object.fromEntries(req.headers),
      body: await req.text(),
    };
    received.push(r);
    return answer(r, received.length);
  });
  return received;
}
