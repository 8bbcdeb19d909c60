// The firm's details, navigation and fixed lists: the one source every page, the footer, the
// structured data and the server read from. The spec leaves name, phone and email as
// placeholders, so the defaults here are clearly fictional (a .example domain, a 0000 number).

export const site = {
  name: "Sabarmati Grid Engineering",
  shortName: "Sabarmati Grid",
  tagline: "Power Systems Consulting",
  description:
    "Power-system studies, grid integration and protection engineering for utilities, renewable developers, industry and commercial buildings, from Ahmedabad, India.",
  phone: "+91 79 4000 0000",
  phoneHref: "tel:+917940000000",
  email: "consult@sabarmatigrid.example",
  address: {
    street: "4th Floor, Shivalik Business Centre, Off S.G. Highway",
    locality: "Ahmedabad",
    region: "Gujarat",
    postalCode: "380054",
    country: "India",
    countryCode: "IN",
  },
  foundedYear: 2009,
  copyrightYear: 2024,
} as const;

export const businessHours = [
  { days: "Monday-Friday", hours: "8:00 AM - 6:00 PM" },
  { days: "Saturday", hours: "9:00 AM - 2:00 PM" },
  { days: "Sunday", hours: "Closed" },
] as const;

export const stats = [
  { value: "15+", label: "Years of Experience" },
  { value: "200+", label: "Projects Completed" },
  { value: "95%", label: "Client Satisfaction" },
  { value: "25+", label: "Expert Engineers" },
] as const;

export const certifications = ["IEEE Member", "PE Licensed", "NECA Partner", "ISO Certified"] as const;

/** SPEC section 2, Contact: service options as value and label. */
export const serviceOptions = [
  { value: "grid-integration", label: "Grid Integration" },
  { value: "renewable-energy", label: "Renewable Energy Solutions" },
  { value: "system-design", label: "System Design" },
  { value: "reliability-analysis", label: "Reliability Analysis" },
  { value: "regulatory-compliance", label: "Regulatory Compliance" },
  { value: "performance-optimization", label: "Performance Optimization" },
] as const;

export type ServiceValue = (typeof serviceOptions)[number]["value"];

export const serviceValues = serviceOptions.map((option) => option.value) as [ServiceValue, ...ServiceValue[]];

export function serviceLabel(value: string | null | undefined): string | undefined {
  return serviceOptions.find((option) => option.value === value)?.label;
}

/** The category that gets the green badge (SPEC section 3); every other category is blue. */
export const RENEWABLE_CATEGORY = "Renewable Energy";

/** SPEC section 9. */
export const limits = {
  replyWithinHours: 24,
  thankYouRedirectSeconds: 10,
  homeTeamMembers: 3,
  homeProjects: 2,
  homeBlogPosts: 3,
  contactMessageRows: 4,
} as const;
