// Accounts in the play app (docs/accounts.md): sign up, sign in with an email and a password or with an
// OpenID Connect provider the lobby is configured with, make the signed-in guest an account, the
// account's email verification, sign out of this device or everywhere. The session (access and refresh
// tokens) is kept on the device like the guest's token; its access token is renewed with RefreshSession
// a minute before it expires, by one tab at a time (a Web Lock; the tab that holds it re-reads the
// session, so a tab that finds it renewed by another adopts it instead of spending the refresh token
// again, which would end the session everywhere).
import { el } from "../shell.js";
import { tr } from "../i18n.js";
import { ConnectError, lobby, reason, refusal, type Json } from "./api.js";
import type { App } from "./app.js";
import type { Guest } from "./store.js";

interface Stored {
  playerId: string;
  name: string;
  accessToken: string;
  accessExpiresAt: number; // unix seconds
  refreshToken: string;
  refreshExpiresAt: number;
}

const SESSION = "tabula.play.session"; // localStorage: every tab shares the session
const STATE = "tabula.play.external-state"; // sessionStorage: the tab that started an external sign-in
export const CALLBACK = "/play/auth/callback"; // the redirect URI the providers send the browser back to
const EARLY_S = 60; // renew this long before the access token expires
const SPENDING = "tabula.play.refreshing"; // localStorage: the refresh token a tab is renewing with now

let live: { guest: Guest; timer: number } | null = null; // the account signed in, if any
let ended: () => void = () => location.reload(); // the session ended elsewhere: show the sign-in
let callbackError = ""; // an external sign-in that failed: said once, on the sign-in screen or as a notice

const now = () => Date.now() / 1000;

function read(): Stored | null {
  try {
    const s = JSON.parse(localStorage.getItem(SESSION) ?? "null") as Stored | null;
    return s && s.refreshExpiresAt > now() + EARLY_S ? s : null;
  } catch {
    return null;
  }
}

function stored(session: Json): Stored {
  return {
    playerId: session.playerId, name: session.displayName, accessToken: session.accessToken,
    accessExpiresAt: Number(session.accessExpiresAt), refreshToken: session.refreshToken, refreshExpiresAt: Number(session.refreshExpiresAt),
  };
}

/** The session in use: saved for every tab, and the app's token (the same Guest object) renewed in place. */
function adopt(s: Stored, save = true): Guest {
  if (save) localStorage.setItem(SESSION, JSON.stringify(s));
  if (!live || live.guest.playerId !== s.playerId) {
    if (live) clearTimeout(live.timer);
    live = { guest: { name: s.name, playerId: s.playerId, token: s.accessToken, expiresAt: s.refreshExpiresAt }, timer: 0 };
  }
  Object.assign(live.guest, { name: s.name, token: s.accessToken, expiresAt: s.refreshExpiresAt });
  clearTimeout(live.timer);
  live.timer = window.setTimeout(() => void renew(), Math.max(0, (s.accessExpiresAt - EARLY_S - now()) * 1000));
  return live.guest;
}

function forget(): void {
  localStorage.removeItem(SESSION);
  if (live) clearTimeout(live.timer);
  live = null;
}

/** The session another tab renews ``spent`` into, once it is stored (null after 5 s: renew here). */
async function otherTab(spent: string): Promise<Stored | null> {
  for (let waited = 0; waited < 5000; waited += 100) {
    const s = read();
    if (s && s.refreshToken !== spent) return s;
    await new Promise((done) => setTimeout(done, 100));
  }
  return null;
}

async function oneTab<T>(work: () => Promise<T>): Promise<T> {
  return navigator.locks ? navigator.locks.request("tabula.play.refresh", work) : work();
}

/** A fresh access token (another tab's, or RefreshSession's); a session that has ended signs out. */
async function renew(): Promise<Guest | null> {
  return oneTab(async () => {
    const s = read();
    if (!s) { forget(); ended(); return null; }
    if (s.accessExpiresAt - EARLY_S > now()) return adopt(s, false); // renewed by another tab
    if (localStorage.getItem(SPENDING) === s.refreshToken) { // another tab renews with it: wait for its session
      const renewed = await otherTab(s.refreshToken);
      if (renewed) return adopt(renewed, false);
    }
    localStorage.setItem(SPENDING, s.refreshToken); // before the call: a token is spent once
    try {
      const reply = (await lobby("").call("RefreshSession", { refreshToken: s.refreshToken })) as Json;
      return adopt(stored(reply.session));
    } catch (err) {
      if (err instanceof ConnectError && reason(err).startsWith("refresh_")) { forget(); ended(); return null; }
      if (live) live.timer = window.setTimeout(() => void renew(), 10_000); // the network: try again soon
      return live?.guest ?? null;
    }
  });
}

addEventListener("storage", (ev) => {
  if (ev.key !== SESSION || !live) return;
  const s = read();
  if (s && s.playerId === live.guest.playerId) adopt(s, false); // another tab renewed it
  else if (ev.newValue === null) { forget(); ended(); } // another tab signed out
});

/** The account signed in on this device, its access token renewed if need be (null: none). */
export async function resumeAccount(): Promise<Guest | null> {
  const s = read();
  if (!s) return null;
  return s.accessExpiresAt - EARLY_S > now() ? adopt(s, false) : renew();
}

/** The provider's redirect back to /play/auth/callback: the sign-in completed (null: not that page). */
export async function fromCallback(): Promise<Guest | null> {
  if (location.pathname !== CALLBACK) return null;
  const q = new URLSearchParams(location.search);
  const mine = sessionStorage.getItem(STATE);
  sessionStorage.removeItem(STATE);
  history.replaceState(null, "", "/play"); // the code leaves the address bar and the history
  try {
    if (q.get("error")) throw new Error(tr("account.provider_refused", { error: q.get("error") }));
    if (!mine || q.get("state") !== mine) throw new Error(tr("account.foreign_state"));
    const reply = (await lobby("").call("CompleteExternalSignIn", { state: q.get("state"), code: q.get("code") ?? "" })) as Json;
    const before = read(); // an account that linked a provider: its new session replaces this one
    const guest = adopt(stored(reply.session));
    if (before) lobby("").call("SignOut", { refreshToken: before.refreshToken, everywhere: false }).catch(() => {});
    return guest;
  } catch (err) {
    callbackError = refusal(err);
    return null;
  }
}

async function external(provider: string, token = ""): Promise<void> {
  const reply = (await lobby(token).call("StartExternalSignIn", { provider, redirectUri: location.origin + CALLBACK })) as Json;
  sessionStorage.setItem(STATE, reply.state);
  location.assign(reply.authorizationUrl);
}

/** Buttons "Sign in with <label>", one per provider the lobby has (none: nothing shown). */
function providerButtons(status: HTMLElement, token = "", verb = "account.sign_in_with"): HTMLElement {
  const box = el("div", { class: "providers", id: token ? "link-providers" : "providers" });
  lobby("").call("ListSignInProviders", {}).then((reply) => {
    for (const p of ((reply as Json).providers ?? []) as Json[]) {
      const button = el("button", { type: "button", id: `external-${p.name}`, text: tr(verb, { provider: p.label }) });
      button.addEventListener("click", () => external(p.name, token).catch((err) => { status.textContent = refusal(err); }));
      box.append(button);
    }
  }, () => {});
  return box;
}

function field(name: string, label: string, type = "text", auto = ""): HTMLInputElement {
  return el("input", { name, type, required: "", autocomplete: auto, "aria-label": label, placeholder: label }) as HTMLInputElement;
}

/** A form whose submit calls `act` with its fields' values; a refusal is said under it. */
function form(id: string, title: string, fields: HTMLInputElement[], button: string, act: (v: Record<string, string>) => Promise<void>): HTMLElement {
  const status = el("p", { class: "note", id: `${id}-status` });
  const node = el("form", { id, class: "panel sign-in" }, el("h2", { text: title }), ...fields,
    el("button", { type: "submit", class: "primary", text: button }), status);
  node.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    status.textContent = "…";
    try {
      await act(Object.fromEntries(fields.map((f) => [f.name, f.value])));
      status.textContent = "";
    } catch (err) {
      status.textContent = refusal(err);
    }
  });
  return node;
}

/** The sign-in screen's account panels: sign in, sign up, the providers. */
export function accountForms(done: (guest: Guest) => void): HTMLElement[] {
  const signIn = form("account-sign-in", tr("account.sign_in"), [field("email", tr("account.email"), "email", "username"), field("password", tr("account.password"), "password", "current-password")], tr("account.sign_in"),
    async (v) => done(adopt(stored(((await lobby("").call("SignIn", v)) as Json).session))));
  const status = el("p", { class: "note error", id: "external-status", text: callbackError });
  callbackError = "";
  signIn.append(providerButtons(status), status);
  const signUp = form("sign-up", tr("account.make_account"), [field("email", tr("account.email"), "email", "username"), field("password", tr("account.new_password"), "password", "new-password"),
    field("displayName", tr("account.display_name"), "text", "nickname")], tr("account.sign_up"),
    async (v) => done(adopt(stored(((await lobby("").call("SignUp", v)) as Json).session))));
  return [signIn, signUp];
}

/** The header's account controls: for an account, its panel and the two sign-outs; for a guest, an
 *  offer to keep the player as an account. `signOut` is the app's (forget the player, show the sign-in). */
export function accountMenu(app: App, whoami: HTMLElement, signOut: () => void): void {
  ended = signOut;
  if (callbackError) app.notify(callbackError, "error"); // a provider's link that failed
  callbackError = "";
  const account = live?.guest === app.guest;
  const open = el("button", { type: "button", id: "account", class: "link", text: account ? tr("account.account") : tr("account.keep") });
  open.addEventListener("click", () => toggle(account ? accountPanel(app, signOut) : upgradePanel(app)));
  whoami.querySelector("#sign-out")?.remove();
  whoami.append(open);
  if (!account) {
    const out = el("button", { type: "button", id: "sign-out", class: "link", text: tr("account.sign_out_link") });
    out.addEventListener("click", signOut);
    whoami.append(out);
  }
}

function toggle(panel: HTMLElement): void {
  const shown = document.getElementById("account-panel");
  shown?.remove();
  if (!shown) document.getElementById("screen")!.before(panel);
}

function upgradePanel(app: App): HTMLElement {
  const upgrade = form("upgrade", tr("account.keep_title"), [field("email", tr("account.email"), "email", "username"),
    field("password", tr("account.new_password"), "password", "new-password")], tr("account.make_the_account"), async (v) => {
    const reply = (await lobby(app.guest.token).call("UpgradeGuest", { ...v, displayName: "" })) as Json;
    adopt(stored(reply.session));
    location.reload(); // the same player, now signed in as the account
  });
  const status = el("p", { class: "note" });
  upgrade.append(providerButtons(status, app.guest.token, "account.or_with"), status);
  return el("div", { id: "account-panel", class: "account-panel" }, upgrade);
}

function accountPanel(app: App, signOut: () => void): HTMLElement {
  const panel = el("div", { id: "account-panel", class: "account-panel panel" }, el("p", { text: "…" }));
  const out = async (everywhere: boolean) => {
    const s = read();
    if (s) await lobby("").call("SignOut", { refreshToken: s.refreshToken, everywhere }).catch(() => {});
    forget();
    signOut();
  };
  const here = el("button", { type: "button", id: "sign-out", text: tr("account.sign_out") });
  here.addEventListener("click", () => out(false));
  const everywhere = el("button", { type: "button", id: "sign-out-everywhere", text: tr("account.sign_out_everywhere") });
  everywhere.addEventListener("click", () => out(true));
  const show = async () => {
    const a = (await app.lobby().call("GetAccount", {})) as Json;
    const status = el("p", { class: "note", id: "verify-status" });
    const rows: (HTMLElement | string)[] = [el("h2", { text: a.displayName }),
      el("p", { id: "account-email", text: a.email ? `${a.email}: ${a.emailVerified ? tr("account.verified") : tr("account.not_verified")}` : tr("account.no_email") })];
    if (a.email && !a.emailVerified) {
      const verify = form("verify", tr("account.verify_title"), [field("code", tr("account.code"))], tr("account.verify"), async (v) => {
        await lobby("").call("VerifyEmail", v);
        await show();
      });
      const again = el("button", { type: "button", id: "resend", class: "link", text: tr("account.resend") });
      again.addEventListener("click", () => app.lobby().call("RequestEmailVerification", {})
        .then(() => { status.textContent = tr("account.resent"); }, (err) => { status.textContent = refusal(err); }));
      rows.push(verify, again, status);
    }
    const linked = (a.externalProviders ?? []) as string[];
    if (linked.length) rows.push(el("p", { id: "linked", text: tr("account.linked", { providers: linked.join(", ") }) }));
    rows.push(providerButtons(status, app.guest.token, "account.link"), el("div", { class: "actions" }, here, everywhere));
    panel.replaceChildren(...rows);
  };
  show().catch((err) => panel.replaceChildren(el("p", { class: "error", text: refusal(err) }), here, everywhere));
  return panel;
}
