// The spectator page's client (bundled by build.mjs into clients/ts/web/tabula-client.js):
// Connect over fetch to the gateway the page came from, JSON on the wire (readable in devtools), and the
// shell pieces the page shares with the play app (src/shell.ts).
import { createConnectTransport } from "@connectrpc/connect-web";
import { Code, ConnectError, JsonClient, LobbyService, gameService, reason } from "./tabula.js";
import { withLocale } from "./i18n.js";

// Every call carries the page's language, so the servers' texts and refusals come in it.
const transport = createConnectTransport({ baseUrl: location.origin, interceptors: [withLocale] });

export { Code, ConnectError, reason };
export {
  createTips, el, eventText, listGames, loadContent, loadModule, outcomeTable, renderTree,
} from "./shell.js";
export { LANGUAGE_NAMES, LOCALES, loadWords, pageLocale, savePageLocale, translator } from "./i18n.js";

/** The lobby, called with a guest token ("" for SignInGuest). */
export function lobby(token: string): JsonClient {
  return new JsonClient(LobbyService, transport, token);
}

/** A game's rule service, called with a spectator token. */
export async function game(name: string, token: string): Promise<JsonClient> {
  return new JsonClient(await gameService(name), transport, token);
}

/** "UNAUTHENTICATED (bad_token): ..." for the page's status line. */
export function describeError(err: unknown): string {
  if (!(err instanceof ConnectError)) return String(err instanceof Error ? err.message : err);
  const why = reason(err);
  return `${Code[err.code]}${why ? ` (${why})` : ""}: ${err.rawMessage}`;
}
