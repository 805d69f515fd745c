// The play app's calls: the lobby and each game's rule service through the gateway the page came from
// (Connect, JSON on the wire), what an error says in words, and a command sent so that it lands once
// however often it has to be sent again.
import { createConnectTransport } from "@connectrpc/connect-web";
import type { DescMessage, DescService } from "@bufbuild/protobuf";
import { Code, ConnectError, JsonClient, LobbyService, gameService, localized, reason } from "../tabula.js";
import { LIMITED_WAIT_MS, retryDelayMs, retryLimited } from "../retry.js";
import { tr, withLocale } from "../i18n.js";

export { Code, ConnectError, reason };
export type Json = any; // protobuf JSON

// Every call carries the page's language, so the servers' texts and refusals come in it.
const transport = createConnectTransport({ baseUrl: location.origin, interceptors: [withLocale] });

/** The lobby, called with a guest token ("" for SignInGuest and ListGames). */
export function lobby(token: string): JsonClient {
  return new JsonClient(LobbyService, transport, token);
}

/** The comments of a game's commands and their fields (src/gen/.../<game>_docs.ts, tools/protoc-gen-docs.mjs). */
export async function gameDocs(game: string): Promise<Record<string, string>> {
  if (!/^[a-z][a-z0-9_]*$/.test(game)) throw new Error(`not a game name: ${game}`);
  try {
    const module: { docs?: Record<string, string> } = await import(`../gen/tabula/${game}/v1/${game}_docs.ts`);
    return module.docs ?? {};
  } catch {
    return {}; // a game without a Command message has no comments to show
  }
}

/** The game's Command message: what SubmitCommand's `command` field holds. */
export function commandMessage(service: DescService): DescMessage {
  const submit = service.methods.find((m) => m.name === "SubmitCommand");
  const command = submit?.input.fields.find((f) => f.name === "command")?.message;
  if (!command) throw new Error(`${service.typeName} has no SubmitCommand with a command`);
  return command;
}

/** A game's rule service called with a seat token, its Command message and the commands' comments. */
export async function gameClient(game: string, token: string): Promise<{ client: JsonClient; command: DescMessage; docs: Record<string, string> }> {
  const service = await gameService(game);
  return { client: new JsonClient(service, transport, token), command: commandMessage(service), docs: await gameDocs(game) };
}

/** An error in words, "You cannot pay the card's cost (cannot_afford)": the app's words for its reason
 * code where they say what happens next (`refusal.<code>` of services/gateway/web_words.py: a stale
 * version, undo), else the refusal's LocalizedMessage (the server's words in the page's language), else
 * the app's general words for the code (`fallback.<code>`), else the English message as it is. */
export function refusal(err: unknown): string {
  if (!(err instanceof ConnectError)) return String(err instanceof Error ? err.message : err);
  const why = reason(err);
  const words = (kind: string) => (why && tr(`${kind}.${why}`) !== `${kind}.${why}` ? tr(`${kind}.${why}`) : "");
  const said = words("refusal") || localized(err) || words("fallback") || (err.rawMessage ? err.rawMessage.charAt(0).toUpperCase() + err.rawMessage.slice(1) : Code[err.code]);
  return `${said}${why ? ` (${why})` : ` (${Code[err.code]})`}`;
}

/** Errors that may pass when the very same request is sent again: the network, a restart, a deadline. */
export function transient(err: unknown): boolean {
  if (!(err instanceof ConnectError)) return err instanceof TypeError; // fetch's network error
  return [Code.Unavailable, Code.DeadlineExceeded, Code.Unknown, Code.Internal].includes(err.code);
}

export const TRANSIENT_RETRIES = 8; // waits of 0.25, 0.5, 1, 2, 4, then 5 s: a restart of some 20 s is waited out
const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

/**
 * `call()` until it is answered: a rate limit waits its RetryInfo (retryLimited), a transient error
 * waits a growing delay (or the RetryInfo the error carries), at most TRANSIENT_RETRIES times. `call`
 * must send the very same request each time: a command keeps its commandId and expectedVersion, so
 * the rule service applies it once and answers a repeat with the first result (duplicate).
 */
export async function persist<T>(call: () => Promise<T>, onWait: (ms: number) => void = () => {}): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await retryLimited(call, { onWait });
    } catch (err) {
      if (!transient(err) || attempt >= TRANSIENT_RETRIES) throw err;
      const said = err instanceof ConnectError ? retryDelayMs(err) : undefined; // store_unavailable has one
      const wait = Math.min(LIMITED_WAIT_MS, said ?? 250 * 2 ** attempt);
      onWait(wait);
      await sleep(wait);
    }
  }
}

/** A new command id: one per click, kept by every retry of that click. */
export function commandId(): string {
  return typeof crypto.randomUUID === "function" ? crypto.randomUUID()
    : Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
}
