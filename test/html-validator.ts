import { HtmlValidate } from "html-validate";

// The HTML validator every page is held to: the public pages (src/server/render/standards.test.ts)
// and the back office's.

/**
 * html-validate's recommended rules, with the few that conflict with a deliberate choice set
 * here, each with its reason. Everything else is an error.
 */
export const htmlValidator = new HtmlValidate({
  extends: ["html-validate:recommended"],
  rules: {
    // The document starts "<!doctype html>", as the HTML standard's own examples write it; case is not significant.
    "doctype-style": ["error", { style: "lowercase" }],
    // React's server renderer writes a present boolean attribute as `required=""`, which HTML allows.
    "attribute-boolean-style": ["error", { style: "empty" }],
    // React writes a few attribute names in camelCase (dateTime, fetchPriority); HTML attribute names ignore case.
    "attr-case": ["error", { style: ["lowercase", "camelcase"] }],
    // React closes void elements ("<img ... />") and the document shell does not ("<meta ...>"): both are valid HTML.
    "void-style": "off",
    // React's useId makes ids such as "_R_1r_-email"; HTML allows any id without whitespace, and the
    // relaxed check still rejects empty ids and ids with spaces.
    "valid-id": ["error", { relaxed: true }],
    // A few lists are named with aria-label (the category filter, the footer's social links): ARIA
    // lets a list have a name, and screen-reader users and the browser tests find them by it.
    "aria-label-misuse": ["error", { allowAnyNamable: true }],
    // The phone links keep the number's ordinary spaces (read aloud and copied as written) and
    // stay on one line through the whitespace-nowrap class.
    "tel-non-breaking": ["error", { ignoreClasses: ["whitespace-nowrap"] }],
    // An article's or project's title is its headline from content/ followed by the site's name;
    // a search engine shortens a long one in its results, and the length is the editors' call.
    "long-title": "off",
    // SPEC section 2: the thank-you page goes home after 10 seconds, and says so; the rule allows
    // only an instant refresh. The form of the refresh is checked more strictly below.
    "meta-refresh": "off",
    // Several checkboxes of one name are one list of choices (a newsletter's articles, a
    // testimonial's services): the form sends every ticked value, as HTML means it to.
    "form-dup-name": ["error", { shared: ["radio", "button", "reset", "submit", "checkbox"] }],
  },
});
