// The company's statutory details: what an Indian company's website must show (its name, registered
// office, Corporate Identity Number and contact details, under the Companies (Incorporation) Rules
// as amended in 2016), and the grievance officer the privacy notice names (the DPDP Rules). They
// come from settings (COMPANY_*, GRIEVANCE_OFFICER_*; the README lists them) and reach every page's
// footer and the privacy notice as page data under companyDataKey. docs/operations.md, "Environment".

export type CompanyDetails = {
  legalName?: string | undefined;
  /** Corporate Identity Number: 21 characters, as U74900GJ2009PTC056789. */
  cin?: string | undefined;
  registeredOffice?: string | undefined;
  /** GST Identification Number: 15 characters, as 24AAACS1234A1Z5. */
  gstin?: string | undefined;
  grievanceOfficerName?: string | undefined;
  grievanceOfficerEmail?: string | undefined;
};

/** The page-data key every page renders the company's details from. */
export const companyDataKey = "site:company";

/**
 * A CIN: listed (L) or unlisted (U), the industry's 5-digit code, the state's 2 letters, the year of
 * incorporation, the company's class (PLC, PTC, OPC, …) and its 6-digit registration number.
 */
export const CIN_PATTERN = /^[LU]\d{5}[A-Z]{2}(19|20)\d{2}[A-Z]{3}\d{6}$/;

/** A GSTIN: the state's 2 digits, the PAN (5 letters, 4 digits, a letter), the entity's number, Z, a check character. */
export const GSTIN_PATTERN = /^\d{2}[A-Z]{5}\d{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/;

/** The settings the law asks for (GSTIN is optional), with the field each fills. */
export const REQUIRED_COMPANY_SETTINGS = [
  ["COMPANY_LEGAL_NAME", "legalName"],
  ["COMPANY_CIN", "cin"],
  ["COMPANY_REGISTERED_OFFICE", "registeredOffice"],
  ["GRIEVANCE_OFFICER_NAME", "grievanceOfficerName"],
  ["GRIEVANCE_OFFICER_EMAIL", "grievanceOfficerEmail"],
] as const satisfies readonly (readonly [string, keyof CompanyDetails])[];

/** The required settings left unset: the site starts without them and says so in its log. */
export function missingCompanySettings(details: CompanyDetails): string[] {
  return REQUIRED_COMPANY_SETTINGS.filter(([, field]) => !details[field]).map(([name]) => name);
}
