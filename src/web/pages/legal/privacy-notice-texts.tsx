import type { ReactNode } from "react";
import { paths } from "#shared/paths.ts";
import type { StatedRetention } from "#shared/retention.ts";
import { site } from "#shared/site.ts";

// The privacy notice's words in each language it is written in, in one shape, so the three pages
// are one layout (legal-pages.tsx) and a section added to one language is missed in the others by
// the type checker. The English is the notice; the Hindi and Gujarati are translations awaiting
// the firm's review (docs/decisions/055-a-notice-at-each-form.md).

export type NoticeLanguage = "en" | "hi" | "gu";

/** What the words are filled with: the site's configured periods and its contact details. */
type Facts = { retention: StatedRetention };

export type NoticeText = {
  title: string;
  eyebrow: string;
  updated: string;
  /** The version line under the title. */
  version: (version: string) => string;
  /** For a translation: that it awaits review and the English prevails. */
  reviewNote?: string;
  intro: ReactNode;
  company: { label: string; legalName: string; cin: string; gstin: string; office: string; grievance: string };
  collect: { heading: string; items: ReactNode[] };
  why: { heading: string; body: ReactNode };
  newsletter: { heading: string; body: ReactNode };
  howLong: { heading: string; items: (facts: Facts) => ReactNode[] };
  where: { heading: string; body: ReactNode };
  rights: { heading: string; body: ReactNode };
  versions: { heading: string; intro: string };
  seeAlso: ReactNode;
};

const mail = <a href={`mailto:${site.email}`}>{site.email}</a>;
const address = `${site.address.street}, ${site.address.locality}, ${site.address.region}`;

const english: NoticeText = {
  title: "Privacy Policy",
  eyebrow: "Legal",
  updated: "Last updated November 2026.",
  version: (version) => `Version ${version}.`,
  intro: (
    <>
      {site.name} ({address}) runs this website. This notice says what personal data the website collects, why, how long
      we keep it and what you can ask of us.
    </>
  ),
  company: {
    label: "The company",
    legalName: "Company",
    cin: "Corporate Identity Number",
    gstin: "GSTIN",
    office: "Registered office",
    grievance: "Grievance officer",
  },
  collect: {
    heading: "What we collect",
    items: [
      <>
        <strong>Enquiries</strong> sent with the contact form: your first and last name, email address, company (if you
        give it), the service you are interested in and the details of your project, with the time you sent them and the
        version of this notice the form showed.
      </>,
      <>
        <strong>Newsletter subscriptions</strong>: your email address; its state (waiting for your confirmation,
        confirmed, unsubscribed, or refused by your mail server) and when it last changed; and, as the record of your
        consent, when you confirmed it, the page you subscribed on and the exact wording you were shown there and on the
        confirmation page, with the version of this notice shown beside the box.
      </>,
      <>
        <strong>Our staff&apos;s accounts</strong>, for the firm&apos;s own people who sign in to the website&apos;s
        back office: their name, work email address and role; the public half of each passkey they register (no
        password, no fingerprint or face: those never leave their device) with the kind of device it was made on; when
        they signed in, from which kind of browser; and a record of what they did in the back office, with the network
        address it came from.
      </>,
      <>
        <strong>Request records</strong>: our server logs which page was asked for, when, and how it answered. These
        records hold no name, email address or message. To limit abuse, we count posts per network address for one
        minute, storing only a one-way keyed hash of the address.
      </>,
      <>
        <strong>Visit counts</strong>, without cookies: for each page shown, its address (without what follows the
        &ldquo;?&rdquo;), the site that linked to it, the campaign named in the link (utm_source, utm_medium,
        utm_campaign), and whether the device is a phone, a tablet or a computer. To tell visitors apart for one day, we
        keep a one-way keyed hash of your network address and browser, made with a random key that changes every day and
        is deleted after 48 hours; your network address and browser are never stored, so the next day&apos;s hash cannot
        be linked to today&apos;s. When you send an enquiry or subscribe, we note with it the first page you viewed that
        day and the site or campaign that brought you. If your browser sends the Global Privacy Control signal
        (Sec-GPC), nothing of your visit is counted.
      </>,
    ],
  },
  why: {
    heading: "Why we collect it",
    body: (
      <>
        We use an enquiry only to answer it and, if you become a client, to prepare a proposal. Sending the form is your
        consent to this use. We do not sell personal data, share it for advertising, or use it to profile you.
      </>
    ),
  },
  newsletter: {
    heading: "The newsletter",
    body: (
      <>
        When you subscribe, we send one email asking you to confirm: nothing else is sent until you press &ldquo;Confirm
        subscription&rdquo; on the page its link opens, so nobody can subscribe your address for you. Once confirmed,
        you receive about one email a month featuring our new articles, and nothing else. Every newsletter has an
        unsubscribe link that stops it in one click, without signing in; your mail program may also show an
        &ldquo;Unsubscribe&rdquo; button that does the same. You can also write to {mail}. The newsletter has no
        tracking pixel: we do not record whether you open it. Its links to our site name the newsletter they came from
        (utm_campaign), counted with the visit like any other campaign.
      </>
    ),
  },
  howLong: {
    heading: "How long we keep it",
    items: ({ retention }) => [
      <>
        Enquiries: {retention.closedEnquiryDays} days after we close them (the work was won or lost), and in any case{" "}
        {retention.enquiryMonths} months from the day you send them, then deleted, with our notes on them. An enquiry
        that leads to work becomes part of our project records, kept for as long as our contract and the law require.
      </>,
      <>Messages our spam filter holds back: {retention.spamDays} days, then deleted.</>,
      <>
        Newsletter addresses: an address not confirmed within 7 days is deleted. A confirmed one is kept, with its
        record of consent, until you ask us to erase it; once you unsubscribe it is kept only so that we know not to
        mail it, and nothing is sent to it unless you subscribe and confirm again.
      </>,
      <>Server request records: 30 days.</>,
      <>
        Visit counts: {retention.analyticsDays} days, then only daily totals (per page, source, campaign and kind of
        device) are kept, which concern no one visitor.
      </>,
      <>
        Staff accounts: while the person works with us; a back-office session ends after 12 hours without use and 7 days
        after sign-in at the latest. The record of back-office actions: {retention.auditMonths} months.
      </>,
    ],
  },
  where: {
    heading: "Where it is kept",
    body: (
      <>
        On our own servers and in our email inbox. Enquiries are emailed to our engineers through our mail provider. The
        website loads nothing from other websites, so no third party learns that you visited.
      </>
    ),
  },
  rights: {
    heading: "Your rights",
    body: (
      <>
        You may ask to see the personal data we hold about you, to correct it, or to erase it, and you may withdraw your
        consent at any time. Write to {mail} or call {site.phone}; we answer within 30 days. To have your data erased,
        write from (or name) the email address you used: we delete every enquiry of that address, our notes on it, the
        mail about it and its newsletter subscription, and keep only a record that an erasure happened, without your
        address or name. If you are not satisfied with our answer, you may complain to the Data Protection Board of
        India.
      </>
    ),
  },
  versions: {
    heading: "Versions of this notice",
    intro: "Each enquiry and subscription records the version its form showed.",
  },
  seeAlso: (
    <>
      See also our <a href={paths.cookies}>Cookie Policy</a> and <a href={paths.terms}>Terms of Service</a>.
    </>
  ),
};

const hindi: NoticeText = {
  title: "गोपनीयता सूचना",
  eyebrow: "क़ानूनी",
  updated: "अंतिम अद्यतन: नवंबर 2026।",
  version: (version) => `संस्करण ${version}।`,
  reviewNote: "यह अनुवाद फ़र्म की समीक्षा की प्रतीक्षा में है। किसी अंतर की स्थिति में अंग्रेज़ी सूचना ही मान्य होगी।",
  intro: (
    <>
      {site.name} ({address}) यह वेबसाइट चलाती है। यह सूचना बताती है कि वेबसाइट कौन-सा व्यक्तिगत डेटा एकत्र करती है, क्यों, हम उसे
      कितने समय तक रखते हैं और आप हमसे क्या माँग सकते हैं।
    </>
  ),
  company: {
    label: "कंपनी",
    legalName: "कंपनी",
    cin: "कॉर्पोरेट पहचान संख्या (CIN)",
    gstin: "GSTIN",
    office: "पंजीकृत कार्यालय",
    grievance: "शिकायत अधिकारी",
  },
  collect: {
    heading: "हम क्या एकत्र करते हैं",
    items: [
      <>
        <strong>पूछताछ</strong>, जो संपर्क फ़ॉर्म से भेजी जाती है: आपका पहला और अंतिम नाम, ईमेल पता, कंपनी (यदि आप दें), जिस सेवा में
        आपकी रुचि है और आपकी परियोजना का विवरण, भेजने के समय और फ़ॉर्म पर दिखाए गए इस सूचना के संस्करण के साथ।
      </>,
      <>
        <strong>न्यूज़लेटर सदस्यता</strong>: आपका ईमेल पता; उसकी स्थिति (आपकी पुष्टि की प्रतीक्षा, पुष्ट, सदस्यता समाप्त, या आपके मेल
        सर्वर द्वारा अस्वीकृत) और वह कब बदली; और आपकी सहमति के प्रमाण के रूप में: आपने कब पुष्टि की, किस पृष्ठ पर सदस्यता ली, वहाँ और
        पुष्टि पृष्ठ पर आपको दिखाए गए ठीक-ठीक शब्द, और बॉक्स के पास दिखाया गया इस सूचना का संस्करण।
      </>,
      <>
        <strong>हमारे कर्मचारियों के खाते</strong>, फ़र्म के अपने उन लोगों के लिए जो वेबसाइट के बैक ऑफ़िस में साइन इन करते हैं: उनका नाम,
        कार्य ईमेल पता और भूमिका; उनकी हर पासकी का सार्वजनिक भाग (कोई पासवर्ड, उँगली का निशान या चेहरा नहीं: वे कभी उनके उपकरण से
        बाहर नहीं जाते) और वह किस प्रकार के उपकरण पर बनी; उन्होंने कब और किस प्रकार के ब्राउज़र से साइन इन किया; और बैक ऑफ़िस में उन्होंने
        क्या किया, उस नेटवर्क पते के साथ जहाँ से किया।
      </>,
      <>
        <strong>अनुरोधों के रिकॉर्ड</strong>: हमारा सर्वर दर्ज करता है कि कौन-सा पृष्ठ कब माँगा गया और उसने क्या उत्तर दिया। इन
        रिकॉर्ड में कोई नाम, ईमेल पता या संदेश नहीं होता। दुरुपयोग रोकने के लिए हम एक मिनट तक हर नेटवर्क पते से भेजे गए फ़ॉर्म गिनते हैं, और
        पते का केवल एकतरफ़ा कुंजीबद्ध हैश रखते हैं।
      </>,
      <>
        <strong>विज़िट की गिनती</strong>, कुकी के बिना: हर दिखाए गए पृष्ठ का पता (&ldquo;?&rdquo; के बाद के भाग के बिना), उससे
        लिंक करने वाली साइट, लिंक में नामित अभियान (utm_source, utm_medium, utm_campaign), और यह कि उपकरण फ़ोन, टैबलेट या कंप्यूटर
        है। एक दिन के लिए आगंतुकों को अलग पहचानने के लिए हम आपके नेटवर्क पते और ब्राउज़र का एकतरफ़ा कुंजीबद्ध हैश रखते हैं, जो एक यादृच्छिक कुंजी
        से बनता है जो हर दिन बदलती है और 48 घंटे बाद मिटा दी जाती है; आपका नेटवर्क पता और ब्राउज़र कभी संग्रहीत नहीं होते, इसलिए अगले
        दिन का हैश आज के हैश से नहीं जोड़ा जा सकता। जब आप पूछताछ भेजते हैं या सदस्यता लेते हैं, तो हम उसके साथ उस दिन देखा गया आपका पहला
        पृष्ठ और आपको लाने वाली साइट या अभियान दर्ज करते हैं। यदि आपका ब्राउज़र ग्लोबल प्राइवेसी कंट्रोल (Sec-GPC) संकेत भेजता है, तो आपकी
        विज़िट की कोई गिनती नहीं होती।
      </>,
    ],
  },
  why: {
    heading: "हम इसे क्यों एकत्र करते हैं",
    body: (
      <>
        हम पूछताछ का उपयोग केवल उसका उत्तर देने के लिए और, यदि आप हमारे ग्राहक बनते हैं, प्रस्ताव तैयार करने के लिए करते हैं। फ़ॉर्म भेजना इस
        उपयोग के लिए आपकी सहमति है। हम व्यक्तिगत डेटा नहीं बेचते, उसे विज्ञापन के लिए साझा नहीं करते, और उससे आपकी प्रोफ़ाइल नहीं बनाते।
      </>
    ),
  },
  newsletter: {
    heading: "न्यूज़लेटर",
    body: (
      <>
        सदस्यता लेने पर हम पुष्टि माँगने वाला एक ईमेल भेजते हैं: जब तक आप उसके लिंक से खुलने वाले पृष्ठ पर &ldquo;Confirm
        subscription&rdquo; नहीं दबाते, तब तक और कुछ नहीं भेजा जाता, ताकि कोई और आपका पता सदस्य न बना सके। पुष्टि के बाद आपको महीने
        में लगभग एक ईमेल मिलता है जिसमें हमारे नए लेख होते हैं, और कुछ नहीं। हर न्यूज़लेटर में सदस्यता समाप्त करने का लिंक होता है जो बिना साइन
        इन किए एक क्लिक में उसे रोक देता है; आपका मेल प्रोग्राम भी &ldquo;Unsubscribe&rdquo; बटन दिखा सकता है जो यही करता है। आप{" "}
        {mail} पर भी लिख सकते हैं। न्यूज़लेटर में कोई ट्रैकिंग पिक्सेल नहीं है: हम यह दर्ज नहीं करते कि आपने उसे खोला या नहीं। उसमें हमारी साइट
        के लिंक बताते हैं कि वे किस न्यूज़लेटर से आए (utm_campaign), जिसे किसी भी अन्य अभियान की तरह विज़िट के साथ गिना जाता है।
      </>
    ),
  },
  howLong: {
    heading: "हम इसे कितने समय तक रखते हैं",
    items: ({ retention }) => [
      <>
        पूछताछ: हमारे बंद करने के {retention.closedEnquiryDays} दिन बाद (काम मिला या नहीं मिला), और हर हाल में आपके भेजने के दिन से{" "}
        {retention.enquiryMonths} महीने बाद, उस पर हमारे नोट्स सहित मिटा दी जाती है। जो पूछताछ काम में बदलती है, वह हमारे
        परियोजना रिकॉर्ड का हिस्सा बन जाती है, जिसे हमारे अनुबंध और क़ानून की अपेक्षा तक रखा जाता है।
      </>,
      <>हमारे स्पैम फ़िल्टर द्वारा रोके गए संदेश: {retention.spamDays} दिन, फिर मिटा दिए जाते हैं।</>,
      <>
        न्यूज़लेटर पते: 7 दिनों में पुष्टि न किया गया पता मिटा दिया जाता है। पुष्ट पता, उसकी सहमति के रिकॉर्ड सहित, तब तक रखा जाता है जब
        तक आप उसे मिटाने को न कहें; सदस्यता समाप्त करने के बाद उसे केवल इसलिए रखा जाता है कि हम जानें कि उस पर मेल नहीं भेजना है, और जब
        तक आप फिर से सदस्यता लेकर पुष्टि न करें, उस पर कुछ नहीं भेजा जाता।
      </>,
      <>सर्वर के अनुरोधों के रिकॉर्ड: 30 दिन।</>,
      <>
        विज़िट की गिनती: {retention.analyticsDays} दिन, फिर केवल दैनिक योग (पृष्ठ, स्रोत, अभियान और उपकरण के प्रकार के अनुसार) रखे
        जाते हैं, जो किसी एक आगंतुक से संबंधित नहीं होते।
      </>,
      <>
        कर्मचारियों के खाते: जब तक व्यक्ति हमारे साथ काम करता है; बैक-ऑफ़िस सत्र 12 घंटे उपयोग न होने पर, और साइन इन के अधिकतम 7 दिन
        बाद, समाप्त हो जाता है। बैक-ऑफ़िस में किए गए कार्यों का रिकॉर्ड: {retention.auditMonths} महीने।
      </>,
    ],
  },
  where: {
    heading: "यह कहाँ रखा जाता है",
    body: (
      <>
        हमारे अपने सर्वरों पर और हमारे ईमेल इनबॉक्स में। पूछताछ हमारे मेल प्रदाता के माध्यम से हमारे इंजीनियरों को ईमेल की जाती है। वेबसाइट
        किसी अन्य वेबसाइट से कुछ भी लोड नहीं करती, इसलिए किसी तीसरे पक्ष को पता नहीं चलता कि आप यहाँ आए थे।
      </>
    ),
  },
  rights: {
    heading: "आपके अधिकार",
    body: (
      <>
        आप हमसे अपने बारे में रखा गया व्यक्तिगत डेटा देखने, उसे सुधारने या मिटाने के लिए कह सकते हैं, और किसी भी समय अपनी सहमति वापस ले सकते
        हैं। {mail} पर लिखें या {site.phone} पर कॉल करें; हम 30 दिनों के भीतर उत्तर देते हैं। अपना डेटा मिटवाने के लिए उसी ईमेल पते से लिखें
        (या उसका उल्लेख करें) जिसका आपने उपयोग किया था: हम उस पते की हर पूछताछ, उस पर हमारे नोट्स, उससे जुड़े मेल और उसकी न्यूज़लेटर
        सदस्यता मिटा देते हैं, और केवल यह रिकॉर्ड रखते हैं कि डेटा मिटाया गया, आपके पते या नाम के बिना। यदि आप हमारे उत्तर से संतुष्ट नहीं हैं,
        तो आप भारतीय डेटा संरक्षण बोर्ड (Data Protection Board of India) से शिकायत कर सकते हैं।
      </>
    ),
  },
  versions: {
    heading: "इस सूचना के संस्करण",
    intro: "हर पूछताछ और सदस्यता यह दर्ज करती है कि उसके फ़ॉर्म पर कौन-सा संस्करण दिखाया गया था।",
  },
  seeAlso: (
    <>
      यह भी देखें (अंग्रेज़ी में): <a href={paths.cookies}>Cookie Policy</a> और <a href={paths.terms}>Terms of Service</a>।
    </>
  ),
};

const gujarati: NoticeText = {
  title: "ગોપનીયતા સૂચના",
  eyebrow: "કાનૂની",
  updated: "છેલ્લે અપડેટ: નવેમ્બર 2026.",
  version: (version) => `આવૃત્તિ ${version}.`,
  reviewNote: "આ અનુવાદ પેઢીની સમીક્ષાની રાહ જુએ છે. કોઈ તફાવત હોય ત્યાં અંગ્રેજી સૂચના જ માન્ય રહેશે.",
  intro: (
    <>
      {site.name} ({address}) આ વેબસાઇટ ચલાવે છે. આ સૂચના જણાવે છે કે વેબસાઇટ કયો વ્યક્તિગત ડેટા એકત્ર કરે છે, શા માટે, અમે તેને કેટલો સમય
      રાખીએ છીએ અને તમે અમારી પાસે શું માગી શકો છો.
    </>
  ),
  company: {
    label: "કંપની",
    legalName: "કંપની",
    cin: "કોર્પોરેટ ઓળખ નંબર (CIN)",
    gstin: "GSTIN",
    office: "નોંધાયેલ કચેરી",
    grievance: "ફરિયાદ અધિકારી",
  },
  collect: {
    heading: "અમે શું એકત્ર કરીએ છીએ",
    items: [
      <>
        <strong>પૂછપરછ</strong>, જે સંપર્ક ફોર્મથી મોકલાય છે: તમારું પ્રથમ અને છેલ્લું નામ, ઇમેઇલ સરનામું, કંપની (જો તમે આપો), તમને જે સેવામાં
        રસ છે તે અને તમારા પ્રોજેક્ટની વિગતો, મોકલ્યાના સમય અને ફોર્મ પર બતાવેલી આ સૂચનાની આવૃત્તિ સાથે.
      </>,
      <>
        <strong>ન્યૂઝલેટર સભ્યપદ</strong>: તમારું ઇમેઇલ સરનામું; તેની સ્થિતિ (તમારી પુષ્ટિની રાહમાં, પુષ્ટ, સભ્યપદ રદ, અથવા તમારા મેઇલ
        સર્વરે નકારેલું) અને તે ક્યારે બદલાઈ; અને તમારી સંમતિના પુરાવા તરીકે: તમે ક્યારે પુષ્ટિ કરી, કયા પાના પર સભ્યપદ લીધું, ત્યાં અને પુષ્ટિ
        પાના પર તમને બતાવેલા ચોક્કસ શબ્દો, અને બોક્સ પાસે બતાવેલી આ સૂચનાની આવૃત્તિ.
      </>,
      <>
        <strong>અમારા કર્મચારીઓનાં ખાતાં</strong>, પેઢીના પોતાના એ લોકો માટે જેઓ વેબસાઇટના બેક ઓફિસમાં સાઇન ઇન કરે છે: તેમનું નામ,
        કામનું ઇમેઇલ સરનામું અને ભૂમિકા; તેમની દરેક પાસકીનો જાહેર ભાગ (કોઈ પાસવર્ડ, આંગળીની છાપ કે ચહેરો નહીં: તે ક્યારેય તેમના ઉપકરણની
        બહાર જતાં નથી) અને તે કેવા ઉપકરણ પર બની; તેમણે ક્યારે અને કેવા બ્રાઉઝરથી સાઇન ઇન કર્યું; અને બેક ઓફિસમાં તેમણે શું કર્યું, જે નેટવર્ક
        સરનામેથી કર્યું તેની સાથે.
      </>,
      <>
        <strong>વિનંતીઓના રેકોર્ડ</strong>: અમારું સર્વર નોંધે છે કે કયું પાનું ક્યારે માગવામાં આવ્યું અને તેણે શો જવાબ આપ્યો. આ રેકોર્ડમાં કોઈ
        નામ, ઇમેઇલ સરનામું કે સંદેશ હોતો નથી. દુરુપયોગ રોકવા અમે એક મિનિટ સુધી દરેક નેટવર્ક સરનામેથી મોકલાયેલાં ફોર્મ ગણીએ છીએ, અને
        સરનામાનો માત્ર એકતરફી કી-આધારિત હેશ રાખીએ છીએ.
      </>,
      <>
        <strong>મુલાકાતોની ગણતરી</strong>, કૂકી વિના: દરેક બતાવેલા પાનાનું સરનામું (&ldquo;?&rdquo; પછીના ભાગ વિના), તેની લિંક
        આપનાર સાઇટ, લિંકમાં દર્શાવેલું અભિયાન (utm_source, utm_medium, utm_campaign), અને ઉપકરણ ફોન, ટેબ્લેટ કે કમ્પ્યુટર છે તે. એક દિવસ
        માટે મુલાકાતીઓને અલગ ઓળખવા અમે તમારા નેટવર્ક સરનામા અને બ્રાઉઝરનો એકતરફી કી-આધારિત હેશ રાખીએ છીએ, જે દરરોજ બદલાતી અને 48
        કલાક પછી ભૂંસી નખાતી રેન્ડમ કીથી બને છે; તમારું નેટવર્ક સરનામું અને બ્રાઉઝર ક્યારેય સંગ્રહાતાં નથી, તેથી આવતીકાલનો હેશ આજના હેશ સાથે
        જોડી શકાતો નથી. તમે પૂછપરછ મોકલો કે સભ્યપદ લો ત્યારે અમે તેની સાથે તે દિવસે તમે જોયેલું પહેલું પાનું અને તમને લાવનાર સાઇટ કે અભિયાન
        નોંધીએ છીએ. જો તમારું બ્રાઉઝર ગ્લોબલ પ્રાઇવસી કંટ્રોલ (Sec-GPC) સંકેત મોકલે, તો તમારી મુલાકાતની કોઈ ગણતરી થતી નથી.
      </>,
    ],
  },
  why: {
    heading: "અમે તે શા માટે એકત્ર કરીએ છીએ",
    body: (
      <>
        અમે પૂછપરછનો ઉપયોગ માત્ર તેનો જવાબ આપવા અને, જો તમે અમારા ગ્રાહક બનો તો, દરખાસ્ત તૈયાર કરવા માટે કરીએ છીએ. ફોર્મ મોકલવું એ આ
        ઉપયોગ માટે તમારી સંમતિ છે. અમે વ્યક્તિગત ડેટા વેચતા નથી, જાહેરાત માટે વહેંચતા નથી, કે તેનાથી તમારી પ્રોફાઇલ બનાવતા નથી.
      </>
    ),
  },
  newsletter: {
    heading: "ન્યૂઝલેટર",
    body: (
      <>
        તમે સભ્યપદ લો ત્યારે અમે પુષ્ટિ માગતો એક ઇમેઇલ મોકલીએ છીએ: તેની લિંકથી ખૂલતા પાના પર તમે &ldquo;Confirm subscription&rdquo;
        ન દબાવો ત્યાં સુધી બીજું કંઈ મોકલાતું નથી, જેથી કોઈ બીજું તમારું સરનામું સભ્ય ન બનાવી શકે. પુષ્ટિ પછી તમને મહિને લગભગ એક ઇમેઇલ મળે છે
        જેમાં અમારા નવા લેખો હોય છે, બીજું કંઈ નહીં. દરેક ન્યૂઝલેટરમાં સભ્યપદ રદ કરવાની લિંક હોય છે જે સાઇન ઇન કર્યા વિના એક ક્લિકમાં તેને બંધ
        કરે છે; તમારો મેઇલ પ્રોગ્રામ પણ &ldquo;Unsubscribe&rdquo; બટન બતાવી શકે છે જે આ જ કરે છે. તમે {mail} પર પણ લખી શકો છો.
        ન્યૂઝલેટરમાં કોઈ ટ્રેકિંગ પિક્સેલ નથી: તમે તે ખોલ્યું કે નહીં તે અમે નોંધતા નથી. તેમાંની અમારી સાઇટની લિંક જણાવે છે કે તે કયા ન્યૂઝલેટરમાંથી
        આવી (utm_campaign), જેની ગણતરી બીજા કોઈ પણ અભિયાનની જેમ મુલાકાત સાથે થાય છે.
      </>
    ),
  },
  howLong: {
    heading: "અમે તે કેટલો સમય રાખીએ છીએ",
    items: ({ retention }) => [
      <>
        પૂછપરછ: અમે બંધ કર્યાના {retention.closedEnquiryDays} દિવસ પછી (કામ મળ્યું કે ન મળ્યું), અને દરેક સંજોગોમાં તમે મોકલ્યાના દિવસથી{" "}
        {retention.enquiryMonths} મહિના પછી, તેના પરની અમારી નોંધો સાથે ભૂંસી નખાય છે. જે પૂછપરછ કામમાં ફેરવાય તે અમારા પ્રોજેક્ટ
        રેકોર્ડનો ભાગ બને છે, જે અમારો કરાર અને કાયદો માગે ત્યાં સુધી રખાય છે.
      </>,
      <>અમારા સ્પામ ફિલ્ટરે રોકેલા સંદેશા: {retention.spamDays} દિવસ, પછી ભૂંસી નખાય છે.</>,
      <>
        ન્યૂઝલેટર સરનામાં: 7 દિવસમાં પુષ્ટિ ન થયેલું સરનામું ભૂંસી નખાય છે. પુષ્ટ સરનામું, તેની સંમતિના રેકોર્ડ સાથે, તમે તેને ભૂંસવાનું ન કહો ત્યાં સુધી
        રખાય છે; સભ્યપદ રદ કર્યા પછી તે માત્ર એટલા માટે રખાય છે કે અમને ખબર રહે કે તેને મેઇલ મોકલવાનો નથી, અને તમે ફરી સભ્યપદ લઈ પુષ્ટિ ન
        કરો ત્યાં સુધી તેને કંઈ મોકલાતું નથી.
      </>,
      <>સર્વરની વિનંતીઓના રેકોર્ડ: 30 દિવસ.</>,
      <>
        મુલાકાતોની ગણતરી: {retention.analyticsDays} દિવસ, પછી માત્ર દૈનિક સરવાળા (પાનું, સ્રોત, અભિયાન અને ઉપકરણના પ્રકાર પ્રમાણે)
        રખાય છે, જે કોઈ એક મુલાકાતી સાથે સંબંધિત નથી.
      </>,
      <>
        કર્મચારીઓનાં ખાતાં: વ્યક્તિ અમારી સાથે કામ કરે ત્યાં સુધી; બેક ઓફિસનું સત્ર 12 કલાક ઉપયોગ ન થાય તો, અને સાઇન ઇન પછી વધુમાં વધુ 7
        દિવસે, સમાપ્ત થાય છે. બેક ઓફિસમાં થયેલાં કાર્યોનો રેકોર્ડ: {retention.auditMonths} મહિના.
      </>,
    ],
  },
  where: {
    heading: "તે ક્યાં રખાય છે",
    body: (
      <>
        અમારા પોતાના સર્વર પર અને અમારા ઇમેઇલ ઇનબોક્સમાં. પૂછપરછ અમારા મેઇલ પ્રદાતા મારફતે અમારા ઇજનેરોને ઇમેઇલ થાય છે. વેબસાઇટ બીજી
        કોઈ વેબસાઇટ પરથી કંઈ લોડ કરતી નથી, તેથી કોઈ ત્રીજા પક્ષને ખબર પડતી નથી કે તમે મુલાકાત લીધી.
      </>
    ),
  },
  rights: {
    heading: "તમારા અધિકારો",
    body: (
      <>
        તમે અમારી પાસે તમારા વિશે રાખેલો વ્યક્તિગત ડેટા જોવા, સુધારવા કે ભૂંસવા કહી શકો છો, અને ગમે ત્યારે તમારી સંમતિ પાછી ખેંચી શકો છો.{" "}
        {mail} પર લખો અથવા {site.phone} પર ફોન કરો; અમે 30 દિવસમાં જવાબ આપીએ છીએ. તમારો ડેટા ભૂંસાવવા માટે તમે વાપરેલા ઇમેઇલ
        સરનામેથી લખો (અથવા તેનો ઉલ્લેખ કરો): અમે તે સરનામાની દરેક પૂછપરછ, તેના પરની અમારી નોંધો, તેને લગતા મેઇલ અને તેનું ન્યૂઝલેટર સભ્યપદ
        ભૂંસી નાખીએ છીએ, અને માત્ર ડેટા ભૂંસ્યાનો રેકોર્ડ રાખીએ છીએ, તમારા સરનામા કે નામ વિના. જો તમે અમારા જવાબથી સંતુષ્ટ ન હો, તો તમે
        ભારતના ડેટા પ્રોટેક્શન બોર્ડ (Data Protection Board of India) ને ફરિયાદ કરી શકો છો.
      </>
    ),
  },
  versions: {
    heading: "આ સૂચનાની આવૃત્તિઓ",
    intro: "દરેક પૂછપરછ અને સભ્યપદ નોંધે છે કે તેના ફોર્મ પર કઈ આવૃત્તિ બતાવાઈ હતી.",
  },
  seeAlso: (
    <>
      આ પણ જુઓ (અંગ્રેજીમાં): <a href={paths.cookies}>Cookie Policy</a> અને <a href={paths.terms}>Terms of Service</a>.
    </>
  ),
};

export const noticeTexts: Record<NoticeLanguage, NoticeText> = { en: english, hi: hindi, gu: gujarati };
