import { type FormNotice as Notice, privacyNoticeLanguages } from "#shared/privacy-notice.ts";

// The two lines under a form's button that say, where the data is typed, what it is used for and
// how long it is kept, with the full notice a click away in each language it is written in
// (docs/decisions/055-a-notice-at-each-form.md). Drawn by the server beside the form's island, in
// the same box, so that its words cost the browser's bundle nothing; the island posts the version.

export function FormNotice({
  id,
  notice,
  tone = "light",
  className = "",
}: {
  id: string;
  notice: Notice;
  tone?: "light" | "dark";
  className?: string;
}) {
  const [english, ...translations] = privacyNoticeLanguages;
  const link = tone === "dark" ? "text-white underline" : "text-brand-700 underline";
  return (
    <p id={id} className={`text-sm leading-6 ${tone === "dark" ? "text-slate-200" : "text-slate-600"} ${className}`}>
      {notice.text}{" "}
      <span className="block">
        <a href={english.path} className={link}>
          Read the full privacy notice
        </a>
        , also in{" "}
        {translations.map((language, index) => (
          <span key={language.lang}>
            {index > 0 ? " and " : ""}
            <a href={language.path} lang={language.lang} hrefLang={language.lang} className={link}>
              {language.name}
            </a>
          </span>
        ))}
        .
      </span>
    </p>
  );
}
