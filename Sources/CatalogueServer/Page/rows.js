// How one record looks in the list (a UITableViewCell of style "subtitle" with a detail text
// and a disclosure indicator) and in the detail view. All record text goes through
// textContent / createTextNode: data never becomes markup.

const whole = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
const money = new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** The key a record is selected and fetched by: a country's code, a product's id. */
export function keyOf(entity, item) {
  return entity === "countries" ? item.code : String(item.id);
}

/** A whole number with thousands separators ("49,648,685"), or "" for null. */
export function formatWhole(value) {
  return value === null || value === undefined ? "" : whole.format(value);
}

/** A count of records with its noun: "1 country", "250 countries", "1,000 products". */
export function formatCount(entity, count) {
  const noun = entity === "countries" ? (count === 1 ? "country" : "countries") : count === 1 ? "product" : "products";
  return `${formatWhole(count)} ${noun}`;
}

/** A price with two decimals ("1,799.00"), or "" for null. */
export function formatPrice(value) {
  return value === null || value === undefined ? "" : money.format(value);
}

/** A span of `className` holding `text`. */
function span(className, text = "") {
  const element = document.createElement("span");
  element.className = className;
  element.textContent = text;
  return element;
}

/**
 * Appends `value` to `parent`, its matched parts in <mark>. `segments` is the API's highlight
 * for the field: [{text, match}], whose texts concatenate to the value. Anything else (no
 * highlight, or segments that do not add up) shows the value plainly.
 */
export function appendHighlighted(parent, value, segments) {
  const text = value ?? "";
  const usable = Array.isArray(segments) && segments.map((segment) => segment.text).join("") === text;
  if (!usable) {
    parent.append(document.createTextNode(text));
    return;
  }
  for (const segment of segments) {
    if (segment.match) {
      const mark = document.createElement("mark");
      mark.textContent = segment.text;
      parent.append(mark);
    } else {
      parent.append(document.createTextNode(segment.text));
    }
  }
}

/** Fills a row element with a country: flag, name (and the alias it was found by), capital, population. */
function fillCountry(row, country, highlight) {
  const flag = span("flag", country.flag ?? "");
  flag.setAttribute("aria-hidden", "true");
  const title = span("title");
  const name = span("name");
  appendHighlighted(name, country.name, highlight.name);
  title.append(name);
  if (highlight.alias) {
    // Found through an alias: "Côte d'Ivoire — Ivory Coast", the alias dimmed.
    const alias = span("alias", " — ");
    appendHighlighted(alias, highlight.alias.map((segment) => segment.text).join(""), highlight.alias);
    title.append(alias);
  }
  const subtitle = span("subtitle");
  appendHighlighted(subtitle, country.capital ?? "", highlight.capital);
  const text = span("text");
  text.append(title, subtitle);
  row.append(flag, text, span("detail-text", formatWhole(country.population)));
}

/** Fills a row element with a product: name, type and year, price. */
function fillProduct(row, product, highlight) {
  const title = span("title");
  const name = span("name");
  appendHighlighted(name, product.name, highlight.name);
  title.append(name);
  const facts = [product.type, product.year ?? ""].filter((part) => part !== "").join(" · ");
  const text = span("text");
  text.append(title, span("subtitle", facts));
  row.append(text, span("detail-text", formatPrice(product.price)));
}

/** Replaces a row element's content with a record. */
export function fillRow(row, entity, item, highlight) {
  row.replaceChildren();
  row.classList.remove("placeholder");
  if (entity === "countries") fillCountry(row, item, highlight ?? {});
  else fillProduct(row, item, highlight ?? {});
  const chevron = span("chevron", "›");
  chevron.setAttribute("aria-hidden", "true");
  row.append(chevron);
}

/** Replaces a row element's content with a grey stand-in while its batch loads. */
export function fillPlaceholder(row) {
  row.replaceChildren();
  row.classList.add("placeholder");
  const text = span("text");
  text.append(span("skeleton skeleton-title"), span("skeleton skeleton-subtitle"));
  row.append(text);
  row.setAttribute("aria-busy", "true");
}

/** The labelled lines of the detail view, like `catalogue show`. */
export function detailFields(entity, item) {
  if (entity === "products") {
    return {
      title: item.name,
      subtitle: "",
      fields: [
        ["ID", String(item.id)],
        ["Name", item.name],
        ["Type", item.type],
        ["Year", item.year === null ? "" : String(item.year)],
        ["Price", formatPrice(item.price)],
      ],
    };
  }
  const code = [item.iso3, item.numeric_code].filter(Boolean).join(", ");
  const currency = [item.currency_name, item.currency_code ? `(${item.currency_code})` : ""].filter(Boolean).join(" ");
  return {
    title: [item.name, item.flag].filter(Boolean).join("  "),
    subtitle: item.official_name ?? "",
    fields: [
      ["Code", code ? `${item.code} (${code})` : item.code],
      ["Capital", item.capital],
      ["Continent", item.continent],
      ["Region", item.region],
      ["Subregion", item.subregion],
      ["Population", formatWhole(item.population)],
      ["Area", item.area_km2 === null ? "" : `${formatWhole(item.area_km2)} km²`],
      ["Currency", currency],
      ["Languages", item.languages],
      ["Calling code", !item.calling_code || item.calling_code.startsWith("+") ? item.calling_code : `+${item.calling_code}`],
      ["Internet domain", item.tld],
      ["Neighbours", (item.neighbours ?? "").split(",").filter(Boolean).join(", ")],
      ["Demonym", item.demonym],
      ["Also known as", (item.aliases ?? []).join("; ")],
      ["ID", String(item.id)],
    ],
  };
}
