// The `sizes` of each place the public pages draw a content picture: how wide the picture is drawn
// at each window width, from the Tailwind classes of that place. container-page is at most 80rem
// (1280 px) wide with 16 px on each side, 24 px from sm (640 px) and 32 px from lg (1024 px); the
// card grids' gap-6 is 24 px. The browser picks a width of the srcset from `sizes` before any style
// has loaded, so each string must follow its layout: e2e/responsive-images.spec.ts measures every
// picture at 375, 768 and 1280 px against its sizes. Free of imports, so that any bundle may take it;
// one constant per place, so that a bundle (the blog's island) carries only the strings it uses.

/** Full width of container-page under lg, for a place that is one column there. */
const oneColumn = "(min-width: 640px) calc(100vw - 48px), calc(100vw - 32px)";

/** An article's cover and the pictures of its body: container-page max-w-4xl (56rem, 896 px). */
export const ARTICLE_SIZES = `(min-width: 1024px) 832px, ${oneColumn}`;

/** Article cards: two to a row from md, three from lg (/blog, the home page, related articles). */
export const POST_CARD_SIZES = `(min-width: 1280px) 389px, (min-width: 1024px) calc((100vw - 112px) / 3), (min-width: 768px) calc((100vw - 72px) / 2), ${oneColumn}`;

/** Project cards two to a row from md (/projects, a project's related projects). */
export const PROJECT_CARD_SIZES = `(min-width: 1280px) 596px, (min-width: 1024px) calc((100vw - 88px) / 2), (min-width: 768px) calc((100vw - 72px) / 2), ${oneColumn}`;

/** Project cards two to a row from lg (the home page). */
export const PROJECT_CARD_WIDE_SIZES = `(min-width: 1280px) 596px, (min-width: 1024px) calc((100vw - 88px) / 2), ${oneColumn}`;

/** A project's own picture: three of five columns of container-page (gap-10, 40 px) from lg. */
export const PROJECT_SIZES = `(min-width: 1280px) 714px, (min-width: 1024px) calc((100vw - 224px) * 0.6 + 80px), ${oneColumn}`;

/** Team cards two to a row from sm, three from lg (the home page). */
export const TEAM_CARD_SIZES = `(min-width: 1280px) 389px, (min-width: 1024px) calc((100vw - 112px) / 3), (min-width: 640px) calc((100vw - 72px) / 2), calc(100vw - 32px)`;

/** Team cards two to a row from sm, four from lg (the About page). */
export const TEAM_CARD_ABOUT_SIZES = `(min-width: 1280px) 286px, (min-width: 1024px) calc((100vw - 136px) / 4), (min-width: 640px) calc((100vw - 72px) / 2), calc(100vw - 32px)`;

/** A client's logo in the home page's row: a box of 128 × 48 px at every width. */
export const CLIENT_LOGO_SIZES = "128px";

/** An organisation's logo beside a named testimonial: a box of 96 × 40 px at every width. */
export const TESTIMONIAL_LOGO_SIZES = "96px";

/** Every place by name, for the tests and the server (a page's bundle imports only its own). */
export const IMAGE_SIZES = {
  article: ARTICLE_SIZES,
  postCard: POST_CARD_SIZES,
  projectCard: PROJECT_CARD_SIZES,
  projectCardWide: PROJECT_CARD_WIDE_SIZES,
  project: PROJECT_SIZES,
  teamCard: TEAM_CARD_SIZES,
  teamCardAbout: TEAM_CARD_ABOUT_SIZES,
  clientLogo: CLIENT_LOGO_SIZES,
  testimonialLogo: TESTIMONIAL_LOGO_SIZES,
} as const;
