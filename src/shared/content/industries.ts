// The Industries page's words (src/web/pages/industries/industries-page.tsx draws them with their
// icons); here so that the site search indexes the same words (src/server/content/search.ts).

export const industries = [
  {
    name: "Utilities",
    description:
      "Transmission and distribution utilities bring us their planning, protection and compliance work: from 11 kV feeders to 400 kV substations, we study networks as the operator sees them, with real loads, real settings and the contingencies that keep control rooms awake.",
    services: [
      "Transmission planning and N-1 contingency studies",
      "Protection audits and relay setting reviews",
      "Distribution loss reduction and feeder reconfiguration",
      "IEC 61850 substation automation",
      "Earthing and insulation coordination",
    ],
    projects: [
      "220/66 kV Substation Protection Audit, North Gujarat",
      "Distribution Loss Reduction for an Urban DISCOM",
      "132 kV Substation IEC 61850 Retrofit, Central Gujarat",
    ],
  },
  {
    name: "Renewables",
    description:
      "Solar, wind, hybrid and storage developers need a connection the transmission utility will approve and a plant that behaves as modelled. We carry projects from connectivity application to commissioning tests and model validation.",
    services: [
      "Connectivity and grid-code compliance studies",
      "Reactive power capability and plant controller studies",
      "Fault ride-through with validated RMS and EMT models",
      "Collector system and pooling substation design",
      "Battery storage sizing and integration",
    ],
    projects: [
      "300 MW Solar Park Grid Connection, Kutch",
      "Wind-Solar Hybrid Plant Integration, Rajasthan",
      "40 MWh Battery Storage for a Data Centre Campus",
    ],
  },
  {
    name: "Industrial",
    description:
      "Chemical, cement, steel, pharmaceutical and textile plants run on networks that have grown over decades. We find why drives trip and breakers fail, make the network safe to work on, and size it for the next expansion.",
    services: [
      "Arc flash studies and labelling to IEEE 1584-2018",
      "Relay coordination, including captive generation",
      "Harmonic measurement and filter design to IEEE 519",
      "Motor starting and transient stability",
      "Power factor correction and energy audits",
    ],
    projects: [
      "Arc Flash and Relay Coordination, Chemical Complex, Dahej",
      "Harmonic Mitigation for a Cement Plant, Saurashtra",
      "Captive Solar Protection Review, Textile Mill, Ahmedabad",
    ],
  },
  {
    name: "Commercial",
    description:
      "Hospitals, data centres, IT parks and malls cannot afford an outage. We design and review their supply so that a single fault never takes down critical load, and cut their demand charges where the tariff rewards it.",
    services: [
      "Reliability analysis of supply and standby schemes",
      "Generator, UPS and transfer scheme design",
      "Battery storage for peak shaving",
      "Power quality for sensitive loads",
      "Electrical design review for new buildings",
    ],
    projects: [
      "Power Resilience Design for a 600-Bed Hospital, Ahmedabad",
      "Peak Demand Reduction for an IT Park, Gandhinagar",
      "Power Quality Survey for a Tier III Data Centre",
    ],
  },
] as const;

export const crossIndustry = [
  {
    title: "Power Quality & Harmonics",
    text: "Measurement to IEC 61000-4-30 and filters that meet IEEE 519 at the point of common coupling.",
  },
  {
    title: "Protection & Arc Flash Safety",
    text: "Selective, fast protection that lowers incident energy where people work.",
  },
  {
    title: "Grid Code & Regulatory Compliance",
    text: "CEA connectivity standards, CERC and GERC regulations, documented for approval.",
  },
  {
    title: "Digital Substations",
    text: "IEC 61850 engineering, testing and cyber-secure substation networks.",
  },
  {
    title: "Energy Storage",
    text: "Battery sizing, protection and controls for peak shaving, firming and backup.",
  },
  {
    title: "Asset Performance",
    text: "Loss reduction, loading studies and condition-based plans for ageing equipment.",
  },
] as const;

/** The id of an industry's heading on the page: where a search result links. */
export const industryAnchor = (name: string) => `industry-${name.toLowerCase()}`;
