// What the play app keeps on the device (localStorage), so a reload or a closed tab loses nothing:
// the name last signed in with, the guest's token, and each match's seat token.
export interface Guest {
  name: string;
  playerId: string;
  token: string;
  expiresAt: number; // unix seconds
}

export interface SeatKey {
  game: string;
  seat: number;
  token: string;
}

const NAME = "tabula.play.name";
const GUEST = "tabula.play.guest";
const MATCHES = "tabula.play.matches";

function read<T>(key: string): T | null {
  try {
    const raw = localStorage.getItem(key);
    return raw ? (JSON.parse(raw) as T) : null;
  } catch {
    return null;
  }
}

export const savedName = (): string => localStorage.getItem(NAME) ?? "";

/** The guest signed in on this device, unless its token has expired (a minute's margin). */
export function savedGuest(): Guest | null {
  const guest = read<Guest>(GUEST);
  return guest && guest.expiresAt * 1000 > Date.now() + 60_000 ? guest : null;
}

export function saveGuest(guest: Guest): void {
  localStorage.setItem(NAME, guest.name);
  localStorage.setItem(GUEST, JSON.stringify(guest));
}

/** Sign out: the guest is forgotten, the name stays to fill the form. */
export function forgetGuest(): void {
  localStorage.removeItem(GUEST);
  localStorage.removeItem(MATCHES);
}

export function seatKey(matchId: string): SeatKey | null {
  return (read<Record<string, SeatKey>>(MATCHES) ?? {})[matchId] ?? null;
}

export function saveSeat(matchId: string, key: SeatKey): void {
  const all = read<Record<string, SeatKey>>(MATCHES) ?? {};
  all[matchId] = key;
  localStorage.setItem(MATCHES, JSON.stringify(all));
}
