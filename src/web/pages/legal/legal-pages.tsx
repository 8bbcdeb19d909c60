import type { ReactNode } from "react";
import { apiPaths, paths } from "#shared/paths.ts";
import { companyDataKey, type CompanyDetails } from "#shared/company.ts";
import { retention as defaultRetention, type StatedRetention } from "#shared/retention.ts";
import { site } from "#shared/site.ts";
import { PageHero } from "../../components/page-hero.tsx";
import { usePageData, usePageValue, useRouteBreadcrumbs } from "../../lib/page-context.ts";

// Short, real notices. The site collects personal data (enquiries, newsletter addresses), and
// India's Digital Personal Data Protection Act, 2023 expects a notice saying what and why.

const UPDATED = "November 2026";

function LegalPage({ eyebrow, title, children }: { eyebrow: string; title: string; children: ReactNode }) {
  return (
    <>
      <PageHero eyebrow={eyebrow} title={title} breadcrumbs={useRouteBreadcrumbs()}>
        <p>Last updated {UPDATED}.</p>
      </PageHero>
      <div className="container-page max-w-3xl py-14">
        <div className="article-body">{children}</div>
      </div>
    </>
  );
}

/** Who is responsible for the data, as configured (COMPANY_*, GRIEVANCE_OFFICER_*): only what is set. */
function CompanyDetailsList() {
  const company = usePageValue<CompanyDetails>(companyDataKey);
  const rows: [string, ReactNode][] = [];
  if (company?.legalName) rows.push(["Company", company.legalName]);
  if (company?.cin) rows.push(["Corporate Identity Number", company.cin]);
  if (company?.gstin) rows.push(["GSTIN", company.gstin]);
  if (company?.registeredOffice) rows.push(["Registered office", company.registeredOffice]);
  if (company?.grievanceOfficerName || company?.grievanceOfficerEmail)
    rows.push([
      "Grievance officer",
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
    <dl aria-label="The company" className="my-6 grid gap-x-6 gap-y-2 sm:grid-cols-[max-content_1fr]">
      {rows.map(([term, detail]) => (
        <div key={term} className="contents">
          <dt className="font-semibold text-navy-900">{term}</dt>
          <dd className="m-0">{detail}</dd>
        </div>
      ))}
    </dl>
  );
}

export function PrivacyPage() {
  // The periods this site is configured with, which the server always has (createReadApi); the
  // defaults only for a render without the server's data.
  const retention = usePageData<StatedRetention>(apiPaths.retention).data ?? defaultRetention;
  return (
    <LegalPage eyebrow="Legal" title="Privacy Policy">
      <p>
        {site.name} ({site.address.street}, {site.address.locality}, {site.address.region}) runs this website. This
        notice says what personal data the website collects, why, how long we keep it and what you can ask of us.
      </p>
      <CompanyDetailsList />
      <h2 id="what-we-collect">What we collect</h2>
      <ul>
        <li>
          <strong>Enquiries</strong> sent with the contact form: your first and last name, email address, company (if
          you give it), the service you are interested in and the details of your project, with the time you sent them.
        </li>
        <li>
          <strong>Newsletter subscriptions</strong>: your email address; its state (waiting for your confirmation,
          confirmed, unsubscribed, or refused by your mail server) and when it last changed; and, as the record of your
          consent, when you confirmed it, the page you subscribed on and the exact wording you were shown there and on
          the confirmation page.
        </li>
        <li>
          <strong>Our staff&apos;s accounts</strong>, for the firm&apos;s own people who sign in to the website&apos;s
          back office: their name, work email address and role; the public half of each passkey they register (no
          password, no fingerprint or face: those never leave their device) with the kind of device it was made on; when
          they signed in, from which kind of browser; and a record of what they did in the back office, with the network
          address it came from.
        </li>
        <li>
          <strong>Request records</strong>: our server logs which page was asked for, when, and how it answered. These
          records hold no name, email address or message. To limit abuse, we count posts per network address for one
          minute, storing only a one-way keyed hash of the address.
        </li>
        <li>
          <strong>Visit counts</strong>, without cookies: for each page shown, its address (without what follows the
          &ldquo;?&rdquo;), the site that linked to it, the campaign named in the link (utm_source, utm_medium,
          utm_campaign), and whether the device is a phone, a tablet or a computer. To tell visitors apart for one day,
          we keep a one-way keyed hash of your network address and browser, made with a random key that changes every
          day and is deleted after 48 hours; your network address and browser are never stored, so the next day&apos;s
          hash cannot be linked to today&apos;s. When you send an enquiry or subscribe, we note with it the first page
          you viewed that day and the site or campaign that brought you. If your browser sends the Global Privacy
          Control signal (Sec-GPC), nothing of your visit is counted.
        </li>
      </ul>
      <h2 id="why">Why we collect it</h2>
      <p>
        We use an enquiry only to answer it and, if you become a client, to prepare a proposal. Sending the form is your
        consent to this use. We do not sell personal data, share it for advertising, or use it to profile you.
      </p>
      <h2 id="newsletter">The newsletter</h2>
      <p>
        When you subscribe, we send one email asking you to confirm: nothing else is sent until you press &ldquo;Confirm
        subscription&rdquo; on the page its link opens, so nobody can subscribe your address for you. Once confirmed,
        you receive about one email a month featuring our new articles, and nothing else. Every newsletter has an
        unsubscribe link that stops it in one click, without signing in; your mail program may also show an
        &ldquo;Unsubscribe&rdquo; button that does the same. You can also write to{" "}
        <a href={`mailto:${site.email}`}>{site.email}</a>. The newsletter has no tracking pixel: we do not record
        whether you open it. Its links to our site name the newsletter they came from (utm_campaign), counted with the
        visit like any other campaign.
      </p>
      <h2 id="how-long">How long we keep it</h2>
      <ul>
        <li>
          Enquiries: {retention.closedEnquiryDays} days after we close them (the work was won or lost), and in any case{" "}
          {retention.enquiryMonths} months from the day you send them, then deleted, with our notes on them. An enquiry
          that leads to work becomes part of our project records, kept for as long as our contract and the law require.
        </li>
        <li>Messages our spam filter holds back: {retention.spamDays} days, then deleted.</li>
        <li>
          Newsletter addresses: an address not confirmed within 7 days is deleted. A confirmed one is kept, with its
          record of consent, until you ask us to erase it; once you unsubscribe it is kept only so that we know not to
          mail it, and nothing is sent to it unless you subscribe and confirm again.
        </li>
        <li>Server request records: 30 days.</li>
        <li>
          Visit counts: {retention.analyticsDays} days, then only daily totals (per page, source, campaign and kind of
          device) are kept, which concern no one visitor.
        </li>
        <li>
          Staff accounts: while the person works with us; a back-office session ends after 12 hours without use and 7
          days after sign-in at the latest. The record of back-office actions: {retention.auditMonths} months.
        </li>
      </ul>
      <h2 id="where">Where it is kept</h2>
      <p>
        On our own servers and in our email inbox. Enquiries are emailed to our engineers through our mail provider. The
        website loads nothing from other websites, so no third party learns that you visited.
      </p>
      <h2 id="your-rights">Your rights</h2>
      <p>
        You may ask to see the personal data we hold about you, to correct it, or to erase it, and you may withdraw your
        consent at any time. Write to <a href={`mailto:${site.email}`}>{site.email}</a> or call {site.phone}; we answer
        within 30 days. To have your data erased, write from (or name) the email address you used: we delete every
        enquiry of that address, our notes on it, the mail about it and its newsletter subscription, and keep only a
        record that an erasure happened, without your address or name. If you are not satisfied with our answer, you may
        complain to the Data Protection Board of India.
      </p>
      <p>
        See also our <a href={paths.cookies}>Cookie Policy</a> and <a href={paths.terms}>Terms of Service</a>.
      </p>
    </LegalPage>
  );
}

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
