// The page's language and words in it, for the play app and the spectator page (and a game's module
// through ctx.t): one of LOCALES, chosen in the app's language picker (kept in localStorage
// `tabula.lang`), else the browser's first language that is one of them, else English. A package's words
// (the app's own, `play`, or a game's) come from GET /texts/<name>?lang=<locale>: every key's template,
// English where the locale has no translation. Nothing here touches the page until called, so the Node
// tests run it too.

export const LOCALES = ["en", "zh-CN", "pt-BR"] as const;
export type Locale = (typeof LOCALES)[number];
export const LANG_KEY = "tabula.lang";
/** Each language by its own name, for the picker. */
export const LANGUAGE_NAMES: Record<Locale, string> = { en: "English", "zh-CN": "中文", "pt-BR": "Português" };

export type Values = Record<string, unknown>;
/** A key's template with `{name}` filled in from values; a key the words lack is returned as it is. */
export type Translate = (key: string, values?: Values) => string;

const ALIASES: Record<string, Locale> = { zh: "zh-CN", "zh-hans": "zh-CN", "zh-cn": "zh-CN", "zh-sg": "zh-CN", pt: "pt-BR", "pt-br": "pt-BR", en: "en" };

/** The locale of one language tag ("pt", "zh-Hans-CN", "en-GB"), or null: Traditional Chinese is none of them. */
export function localeOf(tag: string): Locale | null {
  const t = tag.trim().replace(/_/g, "-").toLowerCase();
  if (ALIASES[t]) return ALIASES[t];
  const exact = LOCALES.find((l) => l.toLowerCase() === t);
  if (exact) return exact;
  const [primary, ...rest] = t.split("-");
  if (primary === "zh" && rest.some((p) => ["hant", "tw", "hk", "mo"].includes(p))) return null;
  return ALIASES[primary] ?? null;
}

/** The first of `tags` (navigator.languages, best first) that is one of LOCALES; English if none. */
export function negotiate(tags: readonly string[]): Locale {
  for (const tag of tags) {
    const found = localeOf(tag);
    if (found) return found;
  }
  return "en";
}

/** The page's locale: the one chosen in the picker, else the browser's. */
export function pageLocale(): Locale {
  let saved: string | null = null;
  try {
    saved = localStorage.getItem(LANG_KEY);
  } catch {
    // storage refused (a private window): the browser's languages
  }
  if (saved && (LOCALES as readonly string[]).includes(saved)) return saved as Locale;
  return negotiate(typeof navigator === "undefined" ? [] : navigator.languages ?? [navigator.language]);
}

/** Keeps the picker's choice for every page of this site. */
export function savePageLocale(locale: Locale): void {
  try {
    localStorage.setItem(LANG_KEY, locale);
  } catch {
    // not kept: this page only
  }
}

/** A template with its `{name}` fields filled in; a field without a value stays as it is, visible. */
export function fill(template: string, values: Values = {}): string {
  return template.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (whole, name: string) =>
    Object.prototype.hasOwnProperty.call(values, name) && values[name] !== undefined && values[name] !== null ? String(values[name]) : whole);
}

/** `t` over one package's templates: the key's template filled in, the key itself when it has none. */
export function translator(texts: Record<string, string>): Translate {
  return (key, values) => (Object.prototype.hasOwnProperty.call(texts, key) ? fill(texts[key], values) : key);
}

/** What GET /texts/<name> answers. */
export interface Words {
  locale: Locale;
  texts: Record<string, string>;
}

/** A package's words in `locale` (GET /texts/<name>); no words (every key shows as itself) when the
 * gateway has none for it, or cannot be reached. */
export async function loadWords(name: string, locale: Locale): Promise<Words> {
  try {
    const reply = await fetch(`/texts/${encodeURIComponent(name)}?lang=${encodeURIComponent(locale)}`);
    if (reply.ok) {
      const body = (await reply.json()) as Words;
      return { locale: body.locale ?? locale, texts: body.texts ?? {} };
    }
  } catch {
    // no words: the keys show
  }
  return { locale, texts: {} };
}

/** A Connect interceptor: the request's `accept-language` is the page's locale at the time of the call. */
export const withLocale = <Req extends { header: Headers }, Res>(next: (req: Req) => Promise<Res>) =>
  (req: Req): Promise<Res> => {
    req.header.set("accept-language", pageLocale());
    return next(req);
  };
