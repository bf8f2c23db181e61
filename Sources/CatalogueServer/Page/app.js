// The catalogue page: a search bar over a sectioned table with a scope bar and an A–Z index,
// like the iOS apps the catalogue grew from (and like `catalogue interactive`).
//
// Flow: every change of text, scope, match mode or catalogue calls load(), which asks for the
// sections (and where the selected record now sits) and the scope counts, loads the rows the
// viewport will show, and only then swaps the list. Each load has a generation number and an
// AbortController: a newer keystroke cancels the older requests, and an answer that still
// arrives for an older generation is dropped, so the last text typed always wins.
// The state is kept in the URL (url-state.js); changes made elsewhere arrive over SSE.

import { api, ApiError } from "./api.js";
import { DetailView } from "./detail.js";
import { SectionedList } from "./list.js";
import { ListModel } from "./list-model.js";
import { fillPlaceholder, fillRow, formatCount, formatWhole, keyOf } from "./rows.js";
import { SectionIndex } from "./section-index.js";
import { defaultScope, limitText, readState, writeState } from "./url-state.js";

const $ = (id) => document.getElementById(id);
const ui = {
  app: $("app"),
  q: $("q"),
  clear: $("clear"),
  cancel: $("cancel"),
  entity: $("entity"),
  scopes: $("scopes"),
  match: $("match"),
  status: $("status"),
  position: $("position"),
  list: $("list"),
  rows: $("rows"),
  pinned: $("pinned"),
  index: $("index"),
  empty: $("empty"),
  suggestions: $("suggestions"),
  error: $("error"),
};

// Row and header heights come from the stylesheet (--row-height, --header-height): the list
// is virtual, so it computes every position from them.
const styles = getComputedStyle(document.documentElement);
const ROW_HEIGHT = parseFloat(styles.getPropertyValue("--row-height")) || 56;
const HEADER_HEIGHT = parseFloat(styles.getPropertyValue("--header-height")) || 28;
const INSERTED_MS = 4000; // how long a row that just arrived over SSE stays marked
const REOPEN_MS = 5000; // how long before a stream the server refused (503: too many) is asked for again

const state = readState(location.href);
let loadGeneration = 0;
let pending = null; // {controller, model, options} of the load under way
let scopesController = null;
let suggestionsController = null;
let changes = null; // the EventSource of the current entity
let refreshTimer = 0;
const recentlyInserted = new Map(); // record id → time it arrived

const detail = new DetailView((open) => {
  ui.app.dataset.detail = String(open);
});

const list = new SectionedList({
  scroller: ui.list,
  content: ui.rows,
  pinned: ui.pinned,
  headerHeight: HEADER_HEIGHT,
  fetchBatch: (model, section, offset, limit, signal) =>
    api.sectionRows(model.entity, model.search, section.title, offset, limit, signal),
  fillRow: (row, model, entry) => {
    fillRow(row, model.entity, entry.item, entry.highlight);
    const arrived = recentlyInserted.get(entry.item.id);
    if (arrived !== undefined && performance.now() - arrived < INSERTED_MS) row.classList.add("inserted");
  },
  fillPlaceholder,
  onRowClick: (position) => {
    setSelection(position, { reveal: false });
    openSelection(position);
  },
  onTopSection: (title) => sectionIndex.setCurrent(title),
});

const sectionIndex = new SectionIndex(ui.index, (title) => {
  const model = list.model;
  if (!model) return;
  if (title === null) list.setVirtualTop(0);
  else {
    const section = model.sectionForIndexTitle(title);
    if (section) list.scrollToSection(section);
  }
});

// --- Loading ----------------------------------------------------------------------------

/** What the server is asked for: the text trimmed, as the CLI trims it. */
function currentSearch() {
  return { q: state.q.trim(), scope: state.scope, match: state.match };
}

/**
 * Loads the list for the current state. `keepScroll` (a live change) keeps the scroll
 * position; otherwise the list starts at the top, or around the selected record if it is
 * among the results.
 */
async function load(options = {}) {
  const generation = ++loadGeneration;
  if (pending) {
    pending.controller.abort();
    pending.model?.abortAll();
  }
  const controller = new AbortController();
  pending = { controller, model: null, options };
  ui.app.dataset.busy = "true";
  const entity = state.entity;
  const search = currentSearch();
  const scopesDone = loadScopes(entity, search, generation);
  try {
    const result = await api.sections(entity, search, state.selected, controller.signal);
    if (generation !== loadGeneration) return;
    const model = new ListModel({
      entity,
      search,
      sections: result.sections,
      indexTitles: result.indexTitles ?? [],
      rowHeight: ROW_HEIGHT,
      headerHeight: HEADER_HEIGHT,
    });
    pending.model = model;
    const selected = result.selected ?? null;
    const selection = selected ? model.positionOf(selected.title, selected.offset) : null;
    if (selection === null) state.selected = null; // not among these results
    let top = 0;
    if (options.keepScroll && list.model) top = Math.min(list.virtualTop(), list.maxVirtualTop(model));
    else if (selection) top = list.topCentering(model, selection);
    await list.prepare(model, top);
    if (generation !== loadGeneration) return;
    pending = null;
    show(model, result, top, selection);
    loadSuggestions(model, generation);
    await scopesDone;
    if (generation === loadGeneration) ui.app.dataset.busy = "false";
  } catch (error) {
    if (generation !== loadGeneration || error.name === "AbortError") return;
    pending = null;
    if (error instanceof ApiError && error.status === 400 && /scope/i.test(error.message) &&
        state.scope !== defaultScope(entity)) {
      state.scope = defaultScope(entity); // an unknown scope in a link: use the default one
      writeState(state);
      load();
      return;
    }
    showError(error);
    ui.app.dataset.busy = "false";
  }
}

/** Swaps in a loaded model and updates everything that describes it. */
function show(model, result, top, selection) {
  list.show(model, top, selection);
  ui.list.dataset.entity = model.entity;
  ui.list.dataset.query = model.search.q;
  ui.list.dataset.scope = model.search.scope;
  ui.list.dataset.match = model.search.match;
  ui.list.dataset.total = String(model.total);
  const titled = model.sections.length > 0 && model.sections[0].title !== "";
  sectionIndex.setTitles(titled ? model.indexTitles : [], new Set(model.sections.map((section) => section.title)));
  sectionIndex.setCurrent(list.topSection ?? null);
  ui.list.classList.toggle("with-index", titled);
  ui.empty.hidden = model.total !== 0;
  ui.error.hidden = true;
  updateSelectionDescription();
  writeState(state);
}

/** Loads and shows the count of every scope for the text. */
async function loadScopes(entity, search, generation) {
  scopesController?.abort();
  const controller = (scopesController = new AbortController());
  try {
    const result = await api.scopes(entity, search, controller.signal);
    if (generation === loadGeneration) renderScopes(result.scopes);
  } catch {
    // Stale or failed: keep the counts shown; the sections request reports errors.
  }
}

/**
 * Under "No items found" for a text: "Match Words to find 1 country" when another match mode
 * finds it in the scope (Words a button that chooses it), else "Did you mean: A, B?", each name
 * a button that searches for it (as `catalogue search` says on stderr). Nothing for a list with
 * rows.
 */
async function loadSuggestions(model, generation) {
  suggestionsController?.abort();
  if (model.total !== 0 || model.search.q === "") {
    ui.suggestions.hidden = true;
    return;
  }
  const controller = (suggestionsController = new AbortController());
  try {
    const result = await api.suggestions(model.entity, model.search, controller.signal);
    if (generation !== loadGeneration) return;
    if (result.foundWith) renderFoundWith(model.entity, result.foundWith);
    else renderSuggestions(result.suggestions);
  } catch {
    // Stale or failed: "No items found" alone.
    if (generation === loadGeneration) ui.suggestions.hidden = true;
  }
}

function renderFoundWith(entity, found) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "link found-with";
  button.textContent = ui.match.querySelector(`option[value="${found.match}"]`)?.textContent ?? found.match;
  button.addEventListener("click", () => {
    chooseMatch(found.match);
    ui.q.focus();
  });
  ui.suggestions.replaceChildren("Match ", button, ` to find ${formatCount(entity, found.count)}`);
  ui.suggestions.hidden = false;
}

function renderSuggestions(names) {
  if (names.length === 0) {
    ui.suggestions.hidden = true;
    return;
  }
  const parts = ["Did you mean: "];
  names.forEach((name, at) => {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "link suggestion";
    button.textContent = name;
    button.addEventListener("click", () => {
      setText(name);
      ui.q.focus();
    });
    parts.push(button, at < names.length - 1 ? ", " : "?");
  });
  ui.suggestions.replaceChildren(...parts);
  ui.suggestions.hidden = false;
}

function showError(error) {
  ui.error.textContent = error instanceof ApiError ? error.message : "The catalogue server cannot be reached.";
  ui.error.hidden = false;
}

// --- Scope bar, match mode, catalogue switch ---------------------------------------------

/** The title a scope shows: as the terminal UI shows it, first letter capitalised. */
function scopeTitle(title) {
  return title.charAt(0).toUpperCase() + title.slice(1);
}

function renderScopes(scopes) {
  const buttons = [...ui.scopes.querySelectorAll("button")];
  const same = buttons.length === scopes.length && buttons.every((button, at) => button.dataset.value === scopes[at].scope);
  if (!same) {
    ui.scopes.replaceChildren(
      ...scopes.map((scope) => {
        const button = document.createElement("button");
        button.type = "button";
        button.setAttribute("role", "radio");
        button.dataset.value = scope.scope;
        const title = document.createElement("span");
        title.className = "scope-title";
        title.textContent = scopeTitle(scope.title);
        const count = document.createElement("span");
        count.className = "count";
        button.append(title, count);
        return button;
      }),
    );
  }
  const chosen = state.scope.toLowerCase();
  [...ui.scopes.querySelectorAll("button")].forEach((button, at) => {
    button.querySelector(".count").textContent = formatWhole(scopes[at].count);
    button.setAttribute("aria-label", `${scopeTitle(scopes[at].title)}, ${scopes[at].count}`);
    const checked = button.dataset.value.toLowerCase() === chosen;
    button.setAttribute("aria-checked", String(checked));
    button.tabIndex = checked || (at === 0 && !scopes.some((scope) => scope.scope.toLowerCase() === chosen)) ? 0 : -1;
  });
}

function chooseScope(scope) {
  if (scope === state.scope) return;
  state.scope = scope;
  for (const button of ui.scopes.querySelectorAll("button")) {
    button.setAttribute("aria-checked", String(button.dataset.value === scope));
  }
  writeState(state);
  load();
}

function switchEntity(entity) {
  if (entity === state.entity) return;
  state.entity = entity;
  state.scope = defaultScope(entity);
  state.selected = null;
  writeState(state, { push: true });
  detail.close();
  ui.scopes.replaceChildren();
  syncControls();
  connectChanges();
  load();
}

/** Makes the controls show the state (on start and after Back/Forward). */
function syncControls() {
  if (ui.q.value !== state.q) ui.q.value = state.q;
  ui.match.value = state.match;
  for (const button of ui.entity.querySelectorAll("button")) {
    const checked = button.dataset.value === state.entity;
    button.setAttribute("aria-checked", String(checked));
    button.tabIndex = checked ? 0 : -1;
  }
  const noun = state.entity === "countries" ? "countries" : "products";
  ui.q.setAttribute("aria-label", `Search ${noun}`);
  ui.q.placeholder = state.entity === "countries" ? "Search countries" : "Search products";
  ui.list.setAttribute("aria-label", state.entity === "countries" ? "Countries" : "Products");
  document.title = `Catalogue: ${state.entity === "countries" ? "Countries" : "Products"}`;
  syncSearchButtons();
}

function syncSearchButtons() {
  ui.clear.hidden = state.q === "";
  ui.cancel.hidden = state.q === "";
}

/** Arrow keys in a radio group (the catalogue switch, the scope bar) choose the neighbour. */
function radioGroupKeys(group, choose) {
  group.addEventListener("click", (event) => {
    const button = event.target.closest("button");
    if (button) choose(button.dataset.value);
  });
  group.addEventListener("keydown", (event) => {
    if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
    const buttons = [...group.querySelectorAll("button")];
    const at = buttons.indexOf(document.activeElement);
    if (at < 0) return;
    event.preventDefault();
    const next = buttons[(at + (event.key === "ArrowRight" ? 1 : buttons.length - 1)) % buttons.length];
    next.focus();
    choose(next.dataset.value);
  });
}

// --- Selection ----------------------------------------------------------------------------

/** Selects a row (or none), and puts its key in the URL once its batch is there. */
function setSelection(position, { reveal = true } = {}) {
  list.select(position, { reveal });
  updateSelectionDescription();
  if (position === null) {
    state.selected = null;
    writeState(state);
    return;
  }
  const model = list.model;
  list.entryWhenLoaded(position).then((entry) => {
    const still = list.model === model && list.selection === position;
    if (entry && still) {
      state.selected = keyOf(model.entity, entry.item);
      writeState(state);
    }
  });
}

/** Moves the selection by `delta` rows (a page for PgUp/PgDn); with none, starts at the top row shown. */
function moveSelection(delta) {
  const model = list.model;
  if (!model || model.total === 0) return;
  let index;
  if (list.selection === null) index = model.indexOf(list.firstVisiblePosition());
  else index = Math.min(model.total - 1, Math.max(0, model.indexOf(list.selection) + delta));
  setSelection(model.positionAt(index));
}

function selectIndex(index) {
  const model = list.model;
  if (model && model.total > 0) setSelection(model.positionAt(index));
}

/** Opens the detail view of a row (the selected one by default). */
async function openSelection(position = list.selection) {
  if (position === null) {
    moveSelection(1);
    return;
  }
  const model = list.model;
  const entry = await list.entryWhenLoaded(position);
  if (entry && list.model === model) detail.open(model.entity, keyOf(model.entity, entry.item), entry.item);
}

/** The count line ("250 countries in 25 sections", "3 items found") and "49 of 250". */
function updateSelectionDescription() {
  const model = list.model;
  if (!model) return;
  const total = model.total;
  const browsing = model.search.q === "" && model.sections.length > 0 && model.sections[0].title !== "";
  let text;
  if (browsing) {
    const sections = model.sections.length;
    text = `${formatCount(model.entity, total)} in ${sections} section${sections === 1 ? "" : "s"}`;
  } else {
    text = total === 0 ? "No items found" : total === 1 ? "1 item found" : `${formatWhole(total)} items found`;
  }
  if (ui.status.textContent !== text) ui.status.textContent = text;
  const selection = list.selection;
  ui.position.textContent = selection ? `${formatWhole(model.indexOf(selection) + 1)} of ${formatWhole(total)}` : "";
  const id = selection ? `opt-${selection.s}-${selection.r}` : "";
  for (const element of [ui.list, ui.q]) {
    if (id) element.setAttribute("aria-activedescendant", id);
    else element.removeAttribute("aria-activedescendant");
  }
}

// --- Search field -------------------------------------------------------------------------

function setText(typed) {
  const text = limitText(typed);
  state.q = text;
  if (ui.q.value !== text) ui.q.value = text;
  syncSearchButtons();
  writeState(state);
  load();
}

ui.q.addEventListener("input", () => setText(ui.q.value));
ui.clear.addEventListener("click", () => {
  setText("");
  ui.q.focus();
});
ui.cancel.addEventListener("click", () => {
  setText("");
  ui.list.focus();
});
function chooseMatch(match) {
  state.match = match;
  if (ui.match.value !== match) ui.match.value = match;
  writeState(state);
  load();
}

ui.match.addEventListener("change", () => chooseMatch(ui.match.value));
radioGroupKeys(ui.entity, switchEntity);
radioGroupKeys(ui.scopes, chooseScope);

// --- Keyboard -----------------------------------------------------------------------------
// ↑↓ PgUp PgDn move the selection (also while typing), Home/End in the list, Enter opens the
// detail, Esc closes it / ends the search (back to the sections, on the same record) / leaves
// the field, `/` focuses the search field, and a letter typed in the list jumps to its section.

document.addEventListener("keydown", (event) => {
  if (detail.isOpen || event.defaultPrevented) return; // the dialog handles its own Esc
  const target = event.target;
  const inSearch = target === ui.q;
  const inOtherField = !inSearch && target instanceof Element && target.closest("input, select, textarea") !== null;
  if (event.ctrlKey || event.metaKey || event.altKey || inOtherField) return;
  const onButton = !inSearch && target instanceof Element && target.closest("button") !== null;
  switch (event.key) {
    case "/":
      if (inSearch) return;
      event.preventDefault();
      ui.q.focus();
      ui.q.select();
      return;
    case "ArrowDown":
    case "ArrowUp":
      event.preventDefault();
      moveSelection(event.key === "ArrowDown" ? 1 : -1);
      return;
    case "PageDown":
    case "PageUp":
      event.preventDefault();
      moveSelection(event.key === "PageDown" ? list.pageRows() : -list.pageRows());
      return;
    case "Home":
    case "End":
      if (inSearch || onButton) return;
      event.preventDefault();
      selectIndex(event.key === "Home" ? 0 : (list.model?.total ?? 1) - 1);
      return;
    case "Enter":
      if (onButton) return;
      event.preventDefault();
      openSelection();
      return;
    case "Escape":
      event.preventDefault();
      if (state.q !== "") setText("");
      else if (inSearch) ui.list.focus();
      else setSelection(null);
      return;
    default:
      if (!inSearch && !onButton && /^[a-zA-Z#]$/.test(event.key)) {
        event.preventDefault();
        jumpToLetter(event.key.toUpperCase());
      }
  }
});

/** A letter typed in the list: the first row of its section (or of the next one). */
function jumpToLetter(letter) {
  const model = list.model;
  const section = model?.sectionForIndexTitle(letter);
  if (!section || section.title === "") return;
  list.scrollToSection(section);
  setSelection({ s: section.index, r: 0 }, { reveal: false });
}

// --- Live changes -------------------------------------------------------------------------

/** Listens to the entity's change stream; a change (or a reconnect) refreshes the view. */
function connectChanges() {
  changes?.close();
  ui.app.dataset.live = "connecting";
  const source = (changes = new EventSource(api.changesURL(state.entity)));
  let readyBefore = false;
  source.addEventListener("ready", () => {
    if (changes !== source) return;
    ui.app.dataset.live = "open";
    if (readyBefore) scheduleRefresh(); // reconnected: changes may have been missed
    readyBefore = true;
  });
  source.addEventListener("change", (event) => {
    if (changes !== source) return;
    let change = {};
    try {
      change = JSON.parse(event.data);
    } catch {
      // A change we cannot read still means "something changed".
    }
    const now = performance.now();
    for (const id of change.inserted ?? []) recentlyInserted.set(id, now);
    for (const [id, at] of recentlyInserted) if (now - at > INSERTED_MS) recentlyInserted.delete(id);
    scheduleRefresh();
  });
  source.addEventListener("error", () => {
    if (changes !== source) return;
    ui.app.dataset.live = "reconnecting";
    // EventSource retries a dropped stream by itself, but gives up on an answer that is not a
    // stream (the server's 503 when too many are open): ask again after its Retry-After.
    if (source.readyState === EventSource.CLOSED) {
      setTimeout(() => {
        if (changes === source) connectChanges();
      }, REOPEN_MS);
    }
  });
}

/** Coalesces a burst of changes into one refresh that keeps the scroll position and selection. */
function scheduleRefresh() {
  clearTimeout(refreshTimer);
  refreshTimer = setTimeout(() => {
    // A load under way for new text keeps its own options; otherwise stay where we are.
    load(pending ? pending.options : { keepScroll: true });
  }, 100);
}

// --- Start --------------------------------------------------------------------------------

window.addEventListener("popstate", () => {
  const entityBefore = state.entity;
  Object.assign(state, readState(location.href));
  syncControls();
  if (state.entity !== entityBefore) {
    ui.scopes.replaceChildren();
    connectChanges();
  }
  load();
});

syncControls();
connectChanges();
load();
ui.q.focus({ preventScroll: true });
