// What every screen of the play app gets: the signed-in guest, the games, navigation and notices.
import type { GameInfo } from "../shell.js";
import type { JsonClient } from "../tabula.js";
import type { Guest } from "./store.js";
import { transient, type Json } from "./api.js";
import { limitedWaitMs } from "../retry.js";
import { tr } from "../i18n.js";

/** A game as the app offers it: GET /games (its module) and the lobby's ListGames (options, text). */
export interface GameEntry extends GameInfo {
  description: string;
  options: Json[]; // GameOption as protobuf JSON
}

export interface App {
  guest: Guest;
  games: Map<string, GameEntry>;
  lobby: () => JsonClient; // the lobby with the guest's token
  navigate: (url: string, replace?: boolean) => void; // a new screen, with its URL in the history (or in place of the last)
  notify: (text: string, kind?: string, link?: [string, string]) => void; // a line of the notices bar
  signOut: () => void; // forget the guest (the name stays) and show the sign-in
  seen: Set<string>; // notices shown (a resumed stream may send one again)
  current: string; // the match open on screen, "" for none
}

/** An open screen: close() ends its streams and timers. */
export interface Screen {
  close(): void;
}

export const titleOf = (app: App, game: string): string => app.games.get(game)?.title ?? game;

/** "Ada, greedy bot" from the lobby's seats (common.v1.Seat or MatchSeat). */
export const seatNames = (seats: Json[]): string[] =>
  seats.map((s) => s.label || (s.bot === true ? tr("app.bot_name", { name: s.displayName }) : s.displayName) || tr("app.seat", { n: Number(s.seat || 0) + 1 }));

/** A stream's break that opening it again may get past: the network, a restart, a deadline, a rate limit. */
export const resumable = (err: unknown): boolean => transient(err) || limitedWaitMs(err) !== undefined;

export const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

/**
 * A server stream read to its end, opened again after it breaks (the network, a restart, the stream
 * deadline, a rate limit after its RetryInfo delay) with `request()` built anew, so it resumes where the
 * last item left it; `onItem` gets every item. Ends when `signal` aborts, `onItem` returns true or
 * `onBreak` (told of every error) returns false.
 */
export async function follow(
  open: (request: Json, signal: AbortSignal) => AsyncGenerator<Json>,
  request: () => Json,
  onItem: (item: Json) => boolean | void,
  signal: AbortSignal,
  onBreak: (err: unknown) => boolean = () => true,
): Promise<void> {
  for (let attempt = 0; !signal.aborted; attempt++) {
    let limited: number | undefined;
    try {
      for await (const item of open(request(), signal)) {
        attempt = 0;
        if (onItem(item) === true) return;
      }
    } catch (err) {
      if (signal.aborted || !onBreak(err)) return;
      limited = limitedWaitMs(err); // a rate limit or quota: its RetryInfo says when
    }
    await sleep(limited ?? Math.min(5000, 500 * 2 ** attempt));
  }
}
