#!/usr/bin/env python3
"""Build the project's seed data (seed/countries.json, seed/products.json).

Usage: scripts/build_seed.py [DATA_DIR] [OUT_DIR]

  DATA_DIR  folder holding geonames-countries.json, countryinfo-countries.json,
            iso-3166-1.json and apple-sample-products.csv
            (default: ../shared/data relative to the repository root)
  OUT_DIR   where countries.json and products.json are written (default: seed/
            in the repository root)

The repository root is the parent of this script's folder. Only the Python 3
standard library is used. Output is deterministic: re-running the script on the
same input produces byte-identical files. The rules are documented in
seed/README.md.
"""

import csv
import json
import os
import sys
import unicodedata

# ---------------------------------------------------------------------------
# DATA: hand-written extra products (appended after the 9 products of
# apple-sample-products.csv, in this order). Tuples: (type, name, year, price).
# Apple-ish types: device, desktop, portable (year introduced, US launch
# price in USD). Gift types: birthdays, weddings, funerals (the scopes of
# Apple's "Displaying searchable content by using a search controller"
# sample). Edit here and re-run the script to change seed/products.json.
# ---------------------------------------------------------------------------
EXTRA_PRODUCTS = [
    # --- devices ---
    ("device", "iPhone 3G", 2008, 199.00),
    ("device", "iPhone 4", 2010, 199.00),
    ("device", "iPhone SE", 2016, 399.00),
    ("device", "iPhone X", 2017, 999.00),
    ("device", "iPhone 11", 2019, 699.00),
    ("device", "iPhone 15 Pro", 2023, 999.00),
    ("device", "iPod nano", 2005, 249.00),
    ("device", "iPod shuffle", 2005, 99.00),
    # No other iPad or 2007 iPod here: the acceptance searches `--scope device ipad` (iPad and
    # iPad mini only) and `--match terms "ipod 2007"` (iPod touch only) rely on it.
    ("device", "Apple Pencil", 2015, 99.00),
    ("device", "Magic Mouse", 2009, 69.00),
    ("device", "AirTag", 2021, 29.00),
    ("device", "Apple Watch", 2015, 349.00),
    ("device", "AirPods", 2016, 159.00),
    ("device", "HomePod", 2018, 349.00),
    ("device", "Apple TV", 2007, 299.00),
    ("device", "Newton MessagePad", 1993, 699.00),
    # --- desktops ---
    ("desktop", "Apple II", 1977, 1298.00),
    ("desktop", "Apple Lisa", 1983, 9995.00),
    ("desktop", "Macintosh 128K", 1984, 2495.00),
    ("desktop", "Macintosh Plus", 1986, 2599.00),
    ("desktop", "Macintosh II", 1987, 5498.00),
    ("desktop", "Power Mac G4 Cube", 2000, 1799.00),
    ("desktop", "eMac", 2002, 1099.00),
    ("desktop", "Power Mac G5", 2003, 1999.00),
    ("desktop", "Mac mini", 2005, 499.00),
    ("desktop", "iMac Pro", 2017, 4999.00),
    ("desktop", "Mac Studio", 2022, 1999.00),
    # --- portables ---
    ("portable", "Macintosh Portable", 1989, 6500.00),
    ("portable", "PowerBook 100", 1991, 2500.00),
    ("portable", "iBook", 1999, 1599.00),
    ("portable", "PowerBook G4", 2001, 3499.00),
    ("portable", "MacBook", 2006, 1099.00),
    ("portable", "12-inch MacBook", 2015, 1299.00),
    ("portable", "MacBook Pro 16-inch", 2019, 2399.00),
    ("portable", "MacBook Air (M1)", 2020, 999.00),
    # --- birthdays ---
    ("birthdays", "Chocolate layer cake", 2015, 34.99),
    ("birthdays", "Balloon bouquet", 2018, 24.50),
    ("birthdays", "Crème brûlée torch set", 2019, 39.95),
    ("birthdays", "Café au lait mug pair", 2020, 22.00),
    ("birthdays", "Cupcake gift box", 2016, 29.99),
    ("birthdays", "Instant camera bundle", 2017, 89.99),
    ("birthdays", "Personalized star map print", 2021, 49.00),
    ("birthdays", "Birthday candle sampler", 2022, 12.50),
    ("birthdays", "Smörgåsbord platter", 2019, 64.00),
    ("birthdays", "Piñata party kit", 2014, 27.75),
    # --- weddings ---
    ("weddings", "Crystal champagne flutes", 2014, 79.00),
    ("weddings", "Monogrammed towel set", 2016, 58.00),
    ("weddings", "Stand mixer", 2012, 379.99),
    ("weddings", "Porcelain dinnerware set", 2013, 249.00),
    ("weddings", "Cast iron Dutch oven", 2010, 349.95),
    ("weddings", "Linen duvet cover", 2018, 189.00),
    ("weddings", "Fondue set for two", 2011, 69.00),
    ("weddings", "Château wine gift crate", 2017, 119.00),
    ("weddings", "Édition Noël candle", 2021, 42.00),
    ("weddings", "Honeymoon fund card", 2020, 100.00),
    # --- funerals ---
    ("funerals", "1-800 Flowers sympathy bouquet", 2012, 69.99),
    ("funerals", "White lily arrangement", 2010, 89.00),
    ("funerals", "Memorial candle", 2014, 19.95),
    ("funerals", "Sympathy fruit basket", 2013, 54.99),
    ("funerals", "Standing spray of roses", 2011, 179.00),
    ("funerals", "Memorial tree seedling", 2019, 39.00),
    ("funerals", "Engraved remembrance stone", 2018, 74.50),
    ("funerals", "Peace lily plant", 2009, 49.99),
    ("funerals", "Condolence card set", 2016, 14.00),
    ("funerals", "Crème rose sympathy wreath", 2015, 129.00),
]

# ---------------------------------------------------------------------------
# Rules (see seed/README.md)
# ---------------------------------------------------------------------------
CONTINENTS = {
    "AF": "Africa",
    "AN": "Antarctica",
    "AS": "Asia",
    "EU": "Europe",
    "NA": "North America",
    "OC": "Oceania",
    "SA": "South America",
}

# Codes in GeoNames but not in ISO 3166-1: keep user-assigned XK (Kosovo),
# drop the two that no longer exist.
GEONAMES_EXTRA_KEEP = {"XK"}
GEONAMES_EXTRA_DROP = {"AN", "CS"}  # Netherlands Antilles, Serbia and Montenegro

# Aliases that are exactly one of the entity's own codes are dropped, except
# these (code -> alias spellings kept anyway), because people really type them.
CODE_ALIAS_EXCEPTIONS = {"US": {"USA"}}

COUNTRY_KEYS = [
    "code", "iso3", "numeric_code", "name", "official_name", "capital", "continent",
    "region", "subregion", "population", "area_km2", "currency_code",
    "currency_name", "tld", "calling_code", "languages", "neighbours",
    "demonym", "flag", "aliases",
]
PRODUCT_KEYS = ["name", "type", "year", "price"]
PRODUCT_TYPES = {"device", "desktop", "portable", "birthdays", "weddings", "funerals"}


def clean(value):
    """Strip strings, NFC-normalise them, and turn empty strings into None."""
    if isinstance(value, str):
        value = unicodedata.normalize("NFC", value.strip())
        return value or None
    return value


def fold(text):
    """Case- and diacritic-insensitive key (NFD, drop combining marks, casefold)."""
    decomposed = unicodedata.normalize("NFD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).casefold()


def diacritic_count(text):
    return sum(1 for ch in unicodedata.normalize("NFD", text) if unicodedata.combining(ch))


def flag_for(code):
    return "".join(chr(0x1F1E6 + ord(ch) - ord("A")) for ch in code.upper())


def number(value):
    """int if integral, else float; None stays None."""
    if value is None:
        return None
    value = float(value)
    return int(value) if value.is_integer() else value


def load_json(path):
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)


def build_aliases(code, iso3, name, candidates):
    """Aliases: dedupe by fold(), prefer the spelling with most diacritics
    (ties: first seen in source order), drop the name itself and the entity's
    own codes (except CODE_ALIAS_EXCEPTIONS), sort by code point."""
    name_key = fold(name)
    own_codes = {c.casefold() for c in (code, iso3) if c}
    keep_codes = CODE_ALIAS_EXCEPTIONS.get(code, set())
    chosen = {}  # fold key -> spelling
    for raw in candidates:
        alias = clean(raw)
        if alias is None:
            continue
        key = fold(alias)
        if key == name_key:
            continue
        if alias.casefold() in own_codes and alias not in keep_codes:
            continue
        if key not in chosen or diacritic_count(alias) > diacritic_count(chosen[key]):
            chosen[key] = alias
    return sorted(chosen.values())


def build_countries(data_dir, report):
    geonames = load_json(os.path.join(data_dir, "geonames-countries.json"))
    countryinfo = load_json(os.path.join(data_dir, "countryinfo-countries.json"))
    iso_list = load_json(os.path.join(data_dir, "iso-3166-1.json"))["3166-1"]
    iso = {e["alpha_2"]: e for e in iso_list}

    # countryinfo: the entry keyed exactly by the ISO alpha-2 code is the primary
    # one. Keys like "CW#curaçao.json" are a second upstream file for the same
    # code: they only contribute aliases. Anything that is not an ISO code (or
    # XK) is ignored.
    ci_primary = {}
    ci_secondary = {}
    ci_ignored = []
    for key in sorted(countryinfo):
        entry = countryinfo[key]
        if key in iso or key in GEONAMES_EXTRA_KEEP:
            ci_primary[key] = entry
        else:
            alpha2 = (entry.get("ISO") or {}).get("alpha2")
            if "#" in key and alpha2 == key.split("#", 1)[0] and alpha2 in iso:
                ci_secondary.setdefault(alpha2, []).append(entry)
            else:
                ci_ignored.append(key)

    codes = set(iso)
    for code in sorted(set(geonames) - set(iso)):
        if code in GEONAMES_EXTRA_KEEP:
            codes.add(code)
        elif code in GEONAMES_EXTRA_DROP:
            report["geonames_dropped"].append(code)
        else:
            report["geonames_unknown_dropped"].append(code)

    countries = []
    for code in sorted(codes):
        i = iso.get(code, {})
        g = geonames.get(code)
        ci = ci_primary.get(code, {})
        if g is None:
            report["missing_geonames"].append(code)
            g = {}
        if not ci:
            report["missing_countryinfo"].append(code)

        # name
        if i:
            name = clean(i.get("common_name")) or clean(i["name"])
            ci_name = clean(ci.get("name"))
            if (ci_name and ci_name != name and fold(ci_name) == fold(name)
                    and diacritic_count(ci_name) > diacritic_count(name)):
                report["name_from_countryinfo"].append(f"{code}: {name} -> {ci_name}")
                name = ci_name
        else:
            name = clean(g.get("name")) or clean(ci.get("name"))

        # capital
        ci_cap = ci.get("capital")
        if isinstance(ci_cap, list):
            ci_cap = next((c for c in (clean(x) for x in ci_cap) if c), None)
        capital = clean(ci_cap) or clean(g.get("capital"))
        if capital is None:
            report["null_capital"].append(f"{code} {name}")

        # numeric
        numeric = clean(i.get("numeric"))
        if numeric is None and g.get("isonumeric"):
            numeric = "%03d" % int(g["isonumeric"])
        elif numeric is not None:
            numeric = numeric.zfill(3)

        # area: GeoNames; 0 or missing means unknown -> countryinfo, else null
        area = g.get("areakm2")
        if not area:
            fallback = ci.get("area") or None
            report["area_fallback"].append(f"{code}: geonames={area!r} -> {fallback!r}")
            area = fallback

        population = g.get("population")
        if population is None and ci.get("population") is not None:
            population = ci["population"]
        population = int(population) if population is not None else None

        cont = clean(g.get("continentcode"))
        aliases_src = []
        if ci:
            aliases_src.append(ci.get("name"))
            aliases_src.extend(ci.get("altSpellings") or [])
        for extra in ci_secondary.get(code, []):
            aliases_src.append(extra.get("name"))
            aliases_src.extend(extra.get("altSpellings") or [])
        aliases_src.append(g.get("name"))
        aliases_src.append(i.get("name"))
        aliases_src.append(i.get("official_name"))

        iso3 = clean(i.get("alpha_3")) or clean(g.get("iso3"))
        country = {
            "code": code,
            "iso3": iso3,
            "numeric_code": numeric,
            "name": name,
            "official_name": clean(i.get("official_name")),
            "capital": capital,
            "continent": CONTINENTS.get(cont) if cont else None,
            "region": clean(ci.get("region")),
            "subregion": clean(ci.get("subregion")),
            "population": population,
            "area_km2": number(area),
            "currency_code": clean(g.get("currencycode")),
            "currency_name": clean(g.get("currencyname")),
            "tld": clean(g.get("tld")),
            "calling_code": clean(g.get("phone")),
            "languages": clean(g.get("languages")),
            "neighbours": clean(g.get("neighbours")),
            "demonym": clean(ci.get("demonym")),
            "flag": clean(i.get("flag")) or flag_for(code),
            "aliases": build_aliases(code, iso3, name, aliases_src),
        }
        assert list(country) == COUNTRY_KEYS
        countries.append(country)

    report["countryinfo_ignored"] = ci_ignored
    report["countryinfo_alias_only"] = sorted(
        k for k in countryinfo if k not in ci_primary and k not in ci_ignored)
    validate_countries(countries)
    return countries


def validate_countries(countries):
    codes = [c["code"] for c in countries]
    assert codes == sorted(codes) and len(set(codes)) == len(codes), "codes not unique/sorted"
    for c in countries:
        for key, value in c.items():
            assert value != "", f"{c['code']}.{key} is an empty string"
            if isinstance(value, list):
                assert all(isinstance(a, str) and a for a in value), f"{c['code']}.{key}"
        assert c["name"], c["code"]
        assert c["numeric_code"] is None or (len(c["numeric_code"]) == 3 and c["numeric_code"].isdigit())


def build_products(data_dir):
    products = []
    with open(os.path.join(data_dir, "apple-sample-products.csv"), encoding="utf-8", newline="") as fh:
        for row in csv.DictReader(fh):
            products.append((row["type"], row["name"], int(row["year"]), float(row["price"])))
    products.extend(EXTRA_PRODUCTS)

    out = []
    seen = set()
    for ptype, name, year, price in products:
        name, ptype = clean(name), clean(ptype)
        assert name and ptype, (name, ptype)
        assert ptype in PRODUCT_TYPES, ptype
        assert isinstance(year, int) and 1970 <= year <= 2026, (name, year)
        price = round(float(price), 2)
        assert price > 0, (name, price)
        assert (name, ptype) not in seen, f"duplicate product {name!r} ({ptype})"
        seen.add((name, ptype))
        out.append({"name": name, "type": ptype, "year": year, "price": price})
    return out


def write_json(path, value):
    text = json.dumps(value, ensure_ascii=False, indent=2) + "\n"
    with open(path, "w", encoding="utf-8", newline="\n") as fh:
        fh.write(text)


def main(argv):
    if len(argv) > 3 or any(a in ("-h", "--help") for a in argv[1:]):
        print(__doc__.strip())
        return 0 if len(argv) <= 3 else 2
    repo_root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    data_dir = argv[1] if len(argv) > 1 else os.path.join(repo_root, "..", "shared", "data")
    out_dir = argv[2] if len(argv) > 2 else os.path.join(repo_root, "seed")
    data_dir = os.path.normpath(data_dir)
    out_dir = os.path.normpath(out_dir)
    os.makedirs(out_dir, exist_ok=True)

    report = {k: [] for k in (
        "geonames_dropped", "geonames_unknown_dropped", "missing_geonames",
        "missing_countryinfo", "name_from_countryinfo", "null_capital",
        "area_fallback")}
    countries = build_countries(data_dir, report)
    products = build_products(data_dir)

    write_json(os.path.join(out_dir, "countries.json"), countries)
    write_json(os.path.join(out_dir, "products.json"), products)

    by_type = {}
    for p in products:
        by_type[p["type"]] = by_type.get(p["type"], 0) + 1
    n_iso = sum(1 for c in countries if c["code"] not in GEONAMES_EXTRA_KEEP)

    print(f"data: {data_dir}")
    print(f"countries.json: {len(countries)} countries "
          f"({n_iso} ISO 3166-1 + {len(countries) - n_iso} kept from GeoNames: "
          f"{', '.join(sorted(c['code'] for c in countries if c['code'] in GEONAMES_EXTRA_KEEP))})")
    print(f"  GeoNames codes dropped: {', '.join(report['geonames_dropped']) or 'none'}"
          + (f"; unknown dropped: {', '.join(report['geonames_unknown_dropped'])}"
             if report["geonames_unknown_dropped"] else ""))
    print(f"  ISO entries without GeoNames data: {', '.join(report['missing_geonames']) or 'none'}")
    print(f"  entries without countryinfo data: {', '.join(report['missing_countryinfo']) or 'none'}")
    print(f"  countryinfo keys used for aliases only: {', '.join(report['countryinfo_alias_only']) or 'none'}")
    print(f"  countryinfo keys ignored: {', '.join(report['countryinfo_ignored']) or 'none'}")
    print(f"  names taken from countryinfo (diacritics): {'; '.join(report['name_from_countryinfo']) or 'none'}")
    print(f"  null capital ({len(report['null_capital'])}): {'; '.join(report['null_capital']) or 'none'}")
    print(f"  area fallback (GeoNames 0/missing): {'; '.join(report['area_fallback']) or 'none'}")
    print(f"  aliases: {sum(len(c['aliases']) for c in countries)}")
    print(f"products.json: {len(products)} products ("
          + ", ".join(f"{t} {by_type[t]}" for t in sorted(by_type)) + ")")
    print(f"written to: {out_dir}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
