// A player's profile (/play?profile=ID, "" for the caller's): the name and avatar, and the ratings and
// recent matches the player lets others see (GetProfile). On an account's own profile, a form changes
// the name, the avatar and who sees the matches (UpdateProfile), and another deletes the account
// (DeleteAccount, with the password), which signs out.
import { el } from "../shell.js";
import { titleOf, type App, type Screen } from "./app.js";
import { lobby, refusal, type Json } from "./api.js";
import { tr } from "../i18n.js";

const SVG = "http://www.w3.org/2000/svg";
const VISIBILITY: [string, string][] = [
  ["PROFILE_VISIBILITY_EVERYONE", "profile.seen.everyone"],
  ["PROFILE_VISIBILITY_FRIENDS", "profile.seen.friends"],
  ["PROFILE_VISIBILITY_NOBODY", "profile.seen.nobody"],
];
const POINTS: Record<string, string> = {
  square: "6,6 42,6 42,42 6,42",
  diamond: "24,2 46,24 24,46 2,24",
  hexagon: "13,4 35,4 46,24 35,44 13,44 2,24",
  triangle: "24,3 46,44 2,44",
};
let avatars: Promise<Json[]> | null = null;

/** The lobby's avatars (ListAvatars), read once. */
const avatarList = (): Promise<Json[]> =>
  (avatars ??= lobby("").call("ListAvatars", {}).then((r: Json) => r.avatars || []));

/** The avatar's shape in its colour with the name's initials on it. */
export function avatarIcon(avatar: Json | undefined, name: string, size = 48): SVGElement {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 48 48");
  svg.setAttribute("width", String(size));
  svg.setAttribute("height", String(size));
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", avatar?.description || tr("profile.avatar_label"));
  svg.dataset.avatar = avatar?.avatarId || "";
  const shape = avatar?.shape in POINTS ? document.createElementNS(SVG, "polygon") : document.createElementNS(SVG, "circle");
  if (avatar?.shape in POINTS) shape.setAttribute("points", POINTS[avatar.shape]);
  else for (const [k, v] of [["cx", "24"], ["cy", "24"], ["r", "22"]]) shape.setAttribute(k, v);
  shape.setAttribute("fill", avatar?.colour || "#6b7280");
  const text = document.createElementNS(SVG, "text");
  for (const [k, v] of [["x", "24"], ["y", "30"], ["text-anchor", "middle"], ["font-size", "16"], ["fill", "#fff"]]) text.setAttribute(k, v);
  text.textContent = name.split(/\s+/).filter(Boolean).slice(0, 2).map((w) => w[0].toUpperCase()).join("");
  svg.append(shape, text);
  return svg;
}

export function showProfile(app: App, root: HTMLElement, playerId: string): Screen {
  const status = el("p", { class: "status-line", id: "profile-status", text: tr("profile.loading") });
  root.replaceChildren(el("section", { class: "panel profile", id: "profile" }, status));
  load(app, root, playerId, status);
  return { close: () => {} };
}

async function load(app: App, root: HTMLElement, playerId: string, status: HTMLElement): Promise<void> {
  let p: Json, all: Json[];
  try {
    [p, all] = await Promise.all([app.lobby().call("GetProfile", { playerId }), avatarList()]);
  } catch (err) {
    status.textContent = tr("profile.unreadable", { why: refusal(err) });
    return;
  }
  const own = !playerId || p.playerId === app.guest.playerId;
  const ratings = (p.ratings || []).map((r: Json) =>
    el("tr", {}, el("td", { text: titleOf(app, r.game) }), el("td", { text: Number(r.rating || 0).toFixed(1) }), el("td", { text: String(r.matches || 0) })));
  const recent = (p.recent || []).map((h: Json) => {
    const a = el("a", { href: `/play?match=${encodeURIComponent(h.matchId)}`, text: tr("profile.placed", { game: titleOf(app, h.game), placing: h.placing, seats: h.seats }) });
    a.addEventListener("click", (ev) => { ev.preventDefault(); app.navigate(a.getAttribute("href")!); });
    return el("li", {}, a);
  });
  const shown = p.visible
    ? [el("h3", { text: tr("profile.ratings") }), ratings.length ? el("table", { id: "profile-ratings" }, el("tr", {}, el("th", { text: tr("profile.col.game") }), el("th", { text: tr("profile.col.rating") }), el("th", { text: tr("profile.col.matches") })), ...ratings) : el("p", { class: "note", text: tr("profile.no_ratings") }),
      el("h3", { text: tr("profile.recent") }), recent.length ? el("ol", { id: "profile-recent" }, ...recent) : el("p", { class: "note", text: tr("profile.no_recent") })]
    : [el("p", { class: "note", id: "profile-hidden", text: tr("profile.hidden") })];
  const avatar = all.find((a) => a.avatarId === p.avatarId);
  const forms = own && p.account ? [editForm(app, p, all), deleteForm(app)]
    : own ? [el("p", { class: "note", text: tr("profile.guest_note") })] : [];
  root.firstElementChild!.replaceChildren(
    el("h2", {}, avatarIcon(avatar, p.displayName), el("span", { id: "profile-name", text: ` ${p.displayName}` })),
    el("p", { class: "note", text: p.account ? tr("profile.account") : tr("profile.guest") }), ...shown, ...forms);
}

function editForm(app: App, p: Json, all: Json[]): HTMLElement {
  const name = el("input", { name: "display-name", maxlength: "32", value: p.displayName }) as HTMLInputElement;
  const choices = all.map((a) => {
    const input = el("input", { type: "radio", name: "avatar", value: a.avatarId }) as HTMLInputElement;
    input.checked = a.avatarId === p.avatarId;
    return el("label", { class: "avatar-choice" }, input, avatarIcon(a, p.displayName, 32));
  });
  const seen = el("select", { name: "visibility" }, ...VISIBILITY.map(([v, t]) => el("option", { value: v, text: tr(t) }))) as HTMLSelectElement;
  seen.value = p.visibility || VISIBILITY[0][0];
  const status = el("p", { class: "status-line", id: "edit-status" });
  const form = el("form", { id: "profile-edit" }, el("h3", { text: tr("profile.yours") }), el("label", {}, tr("profile.name"), name),
    el("fieldset", {}, el("legend", { text: tr("profile.avatar") }), ...choices), el("label", {}, tr("profile.who_sees"), seen),
    el("button", { type: "submit", text: tr("profile.save") }), status) as HTMLFormElement;
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const avatarId = (form.querySelector('input[name="avatar"]:checked') as HTMLInputElement | null)?.value ?? "";
    status.textContent = tr("profile.saving");
    try {
      const reply: Json = await app.lobby().call("UpdateProfile", { displayName: name.value.trim(), avatarId, visibility: seen.value });
      app.guest.name = reply.profile.displayName;
      document.getElementById("me")!.textContent = app.guest.name;
      app.navigate("/play?profile=", true);
    } catch (err) {
      status.textContent = refusal(err);
    }
  });
  return form;
}

function deleteForm(app: App): HTMLElement {
  const password = el("input", { type: "password", name: "password", autocomplete: "current-password", required: "" }) as HTMLInputElement;
  const status = el("p", { class: "status-line", id: "delete-status" });
  const form = el("form", { id: "profile-delete" }, el("h3", { text: tr("profile.delete") }),
    el("p", { class: "note", text: tr("profile.delete_note") }),
    el("label", {}, tr("profile.password"), password), el("button", { type: "submit", class: "danger", text: tr("profile.delete") }), status) as HTMLFormElement;
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    status.textContent = tr("profile.deleting");
    try {
      await app.lobby().call("DeleteAccount", { password: password.value });
      app.signOut();
    } catch (err) {
      status.textContent = refusal(err);
    }
  });
  return form;
}
