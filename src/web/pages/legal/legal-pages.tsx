import type { ReactNode } from "react";
import { apiPaths, paths } from "#shared/paths.ts";
import { companyDataKey, type CompanyDetails } from "#shared/company.ts";
import { retention as defaultRetention, type StatedRetention } from "#shared/retention.ts";
import { PRIVACY_NOTICE_VERSION, privacyNoticeLanguages, privacyNoticeVersions } from "#shared/privacy-notice.ts";
import { site } from "#shared/site.ts";
import { PageHero } from "../../components/page-hero.tsx";
import { usePageData, usePageValue, useRouteBreadcrumbs } from "../../lib/page-context.ts";
import { type NoticeLanguage, noticeTexts, type NoticeText } from "./privacy-notice-texts.tsx";

// Short, real notices. The site collects personal data (enquiries, newsletter addresses), and
// India's Digital Personal Data Protection Act, 2023 expects a notice saying what and why.

const UPDATED = "November 2026";

function LegalPage({
  eyebrow,
  title,
  updated = <p>Last updated {UPDATED}.</p>,
  lang,
  children,
}: {
  eyebrow: string;
  title: string;
  updated?: ReactNode;
  lang?: string;
  children: ReactNode;
}) {
  return (
    <div lang={lang}>
      <PageHero eyebrow={eyebrow} title={title} breadcrumbs={useRouteBreadcrumbs()}>
        {updated}
      </PageHero>
      <div className="container-page max-w-3xl py-14">
        <div className="article-body">{children}</div>
      </div>
    </div>
  );
}

/** Who is responsible for the data, as configured (COMPANY_*, GRIEVANCE_OFFICER_*): only what is set. */
function CompanyDetailsList({ labels }: { labels: NoticeText["company"] }) {
  const company = usePageValue<CompanyDetails>(companyDataKey);
  const rows: [string, ReactNode][] = [];
  if (company?.legalName) rows.push([labels.legalName, company.legalName]);
  if (company?.cin) rows.push([labels.cin, company.cin]);
  if (company?.gstin) rows.push([labels.gstin, company.gstin]);
  if (company?.registeredOffice) rows.push([labels.office, company.registeredOffice]);
  if (company?.grievanceOfficerName || company?.grievanceOfficerEmail)
    rows.push([
      labels.grievance,
      <>
        {company.grievanceOfficerName}
        {company.grievanceOfficerName && company.grievanceOfficerEmail ? ", " : ""}
        {company.grievanceOfficerEmail && (
          <a href={`mailto:${company.grievanceOfficerEmail}`}>{company.grievanceOfficerEmail}</a>
        )}
      </>,
    ]);
  if (rows.length === 0) return null;
  return (
    <dl aria-label={labels.label} className="my-6 grid gap-x-6 gap-y-2 sm:grid-cols-[max-content_1fr]">
      {rows.map(([term, detail]) => (
        <div key={term} className="contents">
          <dt className="font-semibold text-navy-900">{term}</dt>
          <dd className="m-0">{detail}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The notice's languages, each a link but the one shown, each named in its own language. */
function NoticeLanguages({ current }: { current: string }) {
  return (
    <nav aria-label="Language / भाषा / ભાષા" className="not-prose mt-3 text-sm">
      <ul className="flex flex-wrap gap-x-4 gap-y-1">
        {privacyNoticeLanguages.map((language) => (
          <li key={language.lang} lang={language.lang}>
            {language.lang === current ? (
              <span aria-current="page" className="font-semibold">
                {language.name}
              </span>
            ) : (
              <a href={language.path} hrefLang={language.lang} className="underline">
                {language.name}
              </a>
            )}
          </li>
        ))}
      </ul>
    </nav>
  );
}

/**
 * The privacy notice in one of its languages (privacy-notice-texts.tsx): the English is the
 * notice, the Hindi and Gujarati translations say that they await the firm's review.
 */
function PrivacyNotice({ language }: { language: NoticeLanguage }) {
  // The periods this site is configured with, which the server always has (createReadApi); the
  // defaults only for a render without the server's data.
  const retention = usePageData<StatedRetention>(apiPaths.retention).data ?? defaultRetention;
  const text = noticeTexts[language];
  const lang = privacyNoticeLanguages.find((entry) => entry.path === noticePaths[language])!.lang;
  return (
    <LegalPage
      eyebrow={text.eyebrow}
      title={text.title}
      lang={language === "en" ? undefined : lang}
      updated={
        <>
          <p>
            {text.updated} {text.version(PRIVACY_NOTICE_VERSION)}
          </p>
          <NoticeLanguages current={lang} />
        </>
      }
    >
      {text.reviewNote ? (
        <p role="note" className="rounded-md border border-amber-300 bg-amber-50 p-4">
          {text.reviewNote}{" "}
          <span lang="en-IN">
            This translation awaits the firm&apos;s review; where it differs, the{" "}
            <a href={paths.privacy}>English notice</a> prevails.
          </span>
        </p>
      ) : null}
      <p>{text.intro}</p>
      <CompanyDetailsList labels={text.company} />
      <h2 id="what-we-collect">{text.collect.heading}</h2>
      <ul>
        {text.collect.items.map((item, index) => (
          <li key={index}>{item}</li>
        ))}
      </ul>
      <h2 id="why">{text.why.heading}</h2>
      <p>{text.why.body}</p>
      <h2 id="newsletter">{text.newsletter.heading}</h2>
      <p>{text.newsletter.body}</p>
      <h2 id="how-long">{text.howLong.heading}</h2>
      <ul>
        {text.howLong.items({ retention }).map((item, index) => (
          <li key={index}>{item}</li>
        ))}
      </ul>
      <h2 id="where">{text.where.heading}</h2>
      <p>{text.where.body}</p>
      <h2 id="your-rights">{text.rights.heading}</h2>
      <p>{text.rights.body}</p>
      <h2 id="versions">{text.versions.heading}</h2>
      <p>{text.versions.intro}</p>
      <ul>
        {[...privacyNoticeVersions].reverse().map((notice) => (
          <li key={notice.version}>
            <strong>{notice.version}</strong>
            {language === "en" ? <>: {notice.change}</> : <span lang="en-IN">: {notice.change}</span>}
          </li>
        ))}
      </ul>
      <p>{text.seeAlso}</p>
    </LegalPage>
  );
}

const noticePaths: Record<NoticeLanguage, string> = {
  en: paths.privacy,
  hi: paths.privacyHindi,
  gu: paths.privacyGujarati,
};

export const PrivacyPage = () => <PrivacyNotice language="en" />;
export const PrivacyPageHindi = () => <PrivacyNotice language="hi" />;
export const PrivacyPageGujarati = () => <PrivacyNotice language="gu" />;

export function TermsPage() {
  return (
    <LegalPage eyebrow="Legal" title="Terms of Service">
      <p>These terms apply to your use of this website. By using it, you accept them.</p>
      <h2 id="information">Information, not engineering advice</h2>
      <p>
        Our articles explain methods and regulations in general terms. They are not a study of your system. Decisions
        about a specific network, plant or connection need a study based on its data; we are glad to carry one out under
        a written agreement.
      </p>
      <h2 id="enquiries">Enquiries</h2>
      <p>
        Sending an enquiry does not create a contract. We aim to reply within 24 hours on working days. Work begins only
        under a signed proposal or contract.
      </p>
      <h2 id="content">Our content</h2>
      <p>
        The text, illustrations and design of this website belong to {site.name}. You may quote short passages with
        attribution and a link; please ask before reproducing more.
      </p>
      <h2 id="use">Acceptable use</h2>
      <p>Do not send unlawful material through our forms, try to break into the website, or use it to send spam.</p>
      <h2 id="law">Governing law</h2>
      <p>These terms are governed by the laws of India; the courts at Ahmedabad, Gujarat have jurisdiction.</p>
      <p>
        Questions: <a href={`mailto:${site.email}`}>{site.email}</a>.
      </p>
    </LegalPage>
  );
}

export function CookiesPage() {
  return (
    <LegalPage eyebrow="Legal" title="Cookie Policy">
      <p>
        <strong>This website sets no cookies for its visitors</strong>, first-party or third-party, and loads no
        third-party analytics, advertising or tracking scripts. It counts visits itself, without cookies or anything
        else stored in your browser: see our <a href={paths.privacy}>Privacy Policy</a>.
      </p>
      <h2 id="staff">Cookies for our staff</h2>
      <p>
        The firm&apos;s own staff who sign in to the website&apos;s back office get one cookie, which keeps them signed
        in: it holds a random number, is sent only to the back office&apos;s addresses (under /admin), cannot be read by
        scripts, and ends when they sign out, after 12 hours without use, or 7 days after they signed in. A member of
        staff may also ask, on the back office&apos;s analytics page, that their own browser not be counted: it then
        keeps a cookie holding only the value 1 (nothing that identifies anyone) for a year, or until they turn counting
        on again.
      </p>
      <h2 id="local-storage">What the browser keeps instead</h2>
      <p>
        If you send an enquiry while your connection drops, your browser keeps that enquiry in its local storage and
        sends it again when the connection returns, so that it is not lost. It is deleted from your browser as soon as
        our server confirms it arrived. Nothing else is stored on your device.
      </p>
      <h2 id="control">Your control</h2>
      <p>
        You can clear this storage at any time in your browser&apos;s settings for this site. See our{" "}
        <a href={paths.privacy}>Privacy Policy</a> for how we treat the data you send us.
      </p>
    </LegalPage>
  );
}
