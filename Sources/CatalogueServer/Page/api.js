// The page's client for the JSON API (docs/openapi.yaml). Every call takes an AbortSignal so
// that a newer keystroke can cancel what an older one started.

/** An error response of the API: its HTTP status and the server's one-line message. */
export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.name = "ApiError";
    this.status = status;
  }
}

/** A query string from an object, leaving out empty values. */
function queryString(params) {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== "") query.set(name, String(value));
  }
  const text = query.toString();
  return text ? `?${text}` : "";
}

/** GET a JSON document; a non-2xx answer becomes an ApiError carrying the server's message. */
async function getJSON(path, params, signal) {
  const response = await fetch(path + queryString(params), {
    signal,
    headers: { Accept: "application/json" },
  });
  let body = null;
  try {
    body = await response.json();
  } catch {
    // Not JSON (a proxy's error page, a cut connection): fall through to the generic message.
  }
  if (!response.ok) {
    throw new ApiError(response.status, body && body.error ? body.error : `HTTP ${response.status}`);
  }
  return body;
}

/** The path segment of a section title: `#` is percent-encoded, the untitled section is `-`. */
export function sectionPathSegment(title) {
  return title === "" ? "-" : encodeURIComponent(title);
}

/** The search parameters every list request shares. */
function searchParams(search) {
  return { q: search.q, scope: search.scope, match: search.match };
}

export const api = {
  /** Section titles and counts, the index titles, and where `selected` sits (if given). */
  sections(entity, search, selected, signal) {
    return getJSON(`/api/${entity}/sections`, { ...searchParams(search), selected }, signal);
  },

  /** One batch of a section's rows with their highlights. */
  sectionRows(entity, search, title, offset, limit, signal) {
    const path = `/api/${entity}/sections/${sectionPathSegment(title)}`;
    return getJSON(path, { ...searchParams(search), offset, limit }, signal);
  },

  /** The count of results in every scope for the text. */
  scopes(entity, search, signal) {
    return getJSON(`/api/${entity}/scopes`, { q: search.q, match: search.match }, signal);
  },

  /**
   * For a text that found nothing: up to five names close to it ("did you mean"), closest
   * first, and the other match mode that finds it in the scope, if any, with its count.
   */
  suggestions(entity, search, signal) {
    return getJSON(`/api/${entity}/suggestions`, searchParams(search), signal);
  },

  /** One record: a country by code, a product by id. */
  record(entity, key, signal) {
    return getJSON(`/api/${entity}/${encodeURIComponent(key)}`, {}, signal);
  },

  /** The URL of the entity's Server-Sent Events stream of change sets. */
  changesURL(entity) {
    return `/api/${entity}/changes`;
  },
};
