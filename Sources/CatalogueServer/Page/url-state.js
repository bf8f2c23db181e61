// The page's state lives in the URL query, so a reload or a shared link restores it:
//   /?entity=countries&q=bog&scope=capital&match=prefix&selected=CO
// `selected` is a country's code or a product's id.

export const ENTITIES = ["countries", "products"];
export const MATCH_MODES = ["prefix", "contains", "words", "terms", "fuzzy"];

/**
 * The longest search text, in Unicode scalars: what the server accepts
 * (`ServerOptions.maximumTextLength`) and the terminal's search field keeps.
 */
export const MAXIMUM_TEXT_LENGTH = 256;

/** `text` without what lies past `MAXIMUM_TEXT_LENGTH` scalars: typing or pasting past it adds nothing. */
export function limitText(text) {
  const scalars = Array.from(text);
  return scalars.length > MAXIMUM_TEXT_LENGTH ? scalars.slice(0, MAXIMUM_TEXT_LENGTH).join("") : text;
}

/** The scope a search uses when none is chosen. */
export function defaultScope(entity) {
  return entity === "products" ? "all" : "name";
}

/** The state a URL describes; anything missing or unknown takes its default. */
export function readState(url) {
  const query = new URL(url).searchParams;
  const entity = ENTITIES.includes(query.get("entity")) ? query.get("entity") : ENTITIES[0];
  const match = MATCH_MODES.includes(query.get("match")) ? query.get("match") : MATCH_MODES[0];
  return {
    entity,
    q: limitText(query.get("q") ?? ""),
    // The server checks the scope (a product type can be anything); an unknown one falls back.
    scope: query.get("scope") || defaultScope(entity),
    match,
    selected: query.get("selected") || null,
  };
}

/** The URL (path and query) for a state. */
export function urlFor(state) {
  const query = new URLSearchParams();
  query.set("entity", state.entity);
  if (state.q !== "") query.set("q", state.q);
  query.set("scope", state.scope);
  query.set("match", state.match);
  if (state.selected !== null) query.set("selected", state.selected);
  return `${location.pathname}?${query.toString()}`;
}

/**
 * Writes the state into the address bar. Typing replaces the history entry (one keystroke is
 * not a page to go back to); `push` makes a new entry (switching the catalogue).
 */
export function writeState(state, { push = false } = {}) {
  const url = urlFor(state);
  if (url === `${location.pathname}${location.search}`) return;
  if (push) history.pushState(null, "", url);
  else history.replaceState(null, "", url);
}
