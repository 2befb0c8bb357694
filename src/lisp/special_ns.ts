/**
 * Namespace forms a Clojure program starts with — `ns`, `require`, `use`, `import`, `in-ns`, `refer` — refused before
 * anything runs, each with what to write instead. A program has one namespace and the libraries it would require
 * are built in (`str/…`, `set/…`, `walk/…`, `json/…`).
 * @module
 */
import { type Ana, formError, type Node } from "./nodes.ts";
import type { Form } from "./forms.ts";
import { defSpecial } from "./specials.ts";

const BUILT_IN = "clojure.string, clojure.set and clojure.walk are built in as str/…, set/…, walk/… (str/join, " +
  "or just join)";

const HINTS: Record<string, string> = {
  "ns": `a program has one namespace and ${BUILT_IN}; remove the ns form`,
  "in-ns": "a program has one namespace; remove the in-ns form",
  "require": `require is not needed: ${BUILT_IN}; remove the require`,
  "use": `use is not needed: ${BUILT_IN}; remove the use`,
  "refer": `refer is not needed: ${BUILT_IN}; remove the refer`,
  "import": "import is not available: there are no Java classes beyond the built-in veneer (Math/…, " +
    "Integer/parseInt, LocalDate/…, .toUpperCase …); remove the import",
};

function refuse(name: string): (items: Form[], form: Form, a: Ana) => Node {
  return (items, form, a) => {
    const target = items[1]?.type === "symbol" ? items[1].name : "";
    if (name === "ns" && a.p.libraries?.namespaces.has(target)) {
      throw formError(
        a,
        "invalid_form",
        `(ns ${target} …): namespace ${target} is an operator library and cannot be redefined by a program; ` +
          `call its functions as (${target}/fn …)`,
        form,
      );
    }
    throw formError(a, "invalid_form", `(${name} …): ${HINTS[name]}`, form);
  };
}

for (const name of Object.keys(HINTS)) {
  defSpecial(name, [`(${name} …)`], `Not available in a program: ${HINTS[name]}.`, refuse(name));
}
