// SPEC section 2, Services: 29 studies. The names and lines are ours (the spec does not show them).

export type StudyGroup =
  | "Steady-State Analysis"
  | "Short Circuit & Protection"
  | "Dynamics & Stability"
  | "Power Quality"
  | "Renewable & Grid Integration"
  | "Safety, Reliability & Compliance";

export const studyGroups: StudyGroup[] = [
  "Steady-State Analysis",
  "Short Circuit & Protection",
  "Dynamics & Stability",
  "Power Quality",
  "Renewable & Grid Integration",
  "Safety, Reliability & Compliance",
];

export const powerSystemStudies: { name: string; description: string; group: StudyGroup }[] = [
  {
    group: "Steady-State Analysis",
    name: "Load Flow Analysis",
    description: "Voltages, loadings and losses across the network for normal and peak operating conditions.",
  },
  {
    group: "Steady-State Analysis",
    name: "Contingency (N-1) Analysis",
    description:
      "Checks that the system stays within limits after the loss of any single line, transformer or generator.",
  },
  {
    group: "Steady-State Analysis",
    name: "Optimal Power Flow",
    description: "Dispatch and tap settings that minimise losses or cost while respecting every network constraint.",
  },
  {
    group: "Steady-State Analysis",
    name: "Reactive Power Compensation",
    description: "Size and placement of capacitors, reactors, SVCs and STATCOMs to hold voltage within limits.",
  },
  {
    group: "Steady-State Analysis",
    name: "Cable Sizing",
    description:
      "Conductor sizes from current rating, voltage drop and short-circuit withstand, with installation derating.",
  },
  {
    group: "Steady-State Analysis",
    name: "Transformer Sizing",
    description: "Transformer ratings and impedances from load growth, motor starting and fault-level limits.",
  },
  {
    group: "Short Circuit & Protection",
    name: "Short Circuit Analysis",
    description: "Fault currents to IEC 60909 for equipment duty checks and protection settings.",
  },
  {
    group: "Short Circuit & Protection",
    name: "Protection Coordination",
    description:
      "Relay and fuse settings graded so that only the faulted section is isolated, quickly and selectively.",
  },
  {
    group: "Short Circuit & Protection",
    name: "Equipment Duty Evaluation",
    description: "Breaker, busbar and CT ratings checked against the present and future fault levels.",
  },
  {
    group: "Short Circuit & Protection",
    name: "Distance Protection Setting",
    description: "Zone reaches and timers for transmission lines, verified against infeed and mutual coupling.",
  },
  {
    group: "Short Circuit & Protection",
    name: "Earthing System Design",
    description: "Substation earthing grids to IEEE 80 with touch and step voltages verified against the soil model.",
  },
  {
    group: "Dynamics & Stability",
    name: "Transient Stability Analysis",
    description: "Rotor-angle stability through faults and switching, with critical clearing times.",
  },
  {
    group: "Dynamics & Stability",
    name: "Small-Signal Stability",
    description: "Damping of electromechanical oscillations and tuning of power system stabilisers.",
  },
  {
    group: "Dynamics & Stability",
    name: "Voltage Stability",
    description: "P-V and Q-V margins to voltage collapse under heavy load and contingencies.",
  },
  {
    group: "Dynamics & Stability",
    name: "Motor Starting Study",
    description: "Voltage dips and acceleration times when large motors start, direct-on-line or soft-started.",
  },
  {
    group: "Dynamics & Stability",
    name: "Load Shedding Scheme Design",
    description: "Under-frequency and under-voltage shedding stages that save the system without over-shedding.",
  },
  {
    group: "Dynamics & Stability",
    name: "Switching Transient (EMT) Study",
    description: "Energisation, capacitor switching and breaker recovery voltages simulated in the time domain.",
  },
  {
    group: "Power Quality",
    name: "Harmonic Analysis",
    description: "Harmonic flows, resonances and IEEE 519 compliance at the point of common coupling.",
  },
  {
    group: "Power Quality",
    name: "Harmonic Filter Design",
    description: "Detuned, tuned and active filter ratings that meet the limits without creating new resonances.",
  },
  {
    group: "Power Quality",
    name: "Power Factor Correction",
    description: "APFC sizing and staging to avoid penalties while keeping clear of harmonic resonance.",
  },
  {
    group: "Power Quality",
    name: "Flicker and Voltage Fluctuation",
    description: "Flicker severity from arc furnaces, welders and wind turbines against planning levels.",
  },
  {
    group: "Renewable & Grid Integration",
    name: "Renewable Plant Connectivity Study",
    description:
      "Load flow, short circuit and stability studies for a solar, wind or hybrid plant's connection application.",
  },
  {
    group: "Renewable & Grid Integration",
    name: "Fault Ride-Through Study",
    description: "Low and high voltage ride-through of inverter-based plants, with validated RMS and EMT models.",
  },
  {
    group: "Renewable & Grid Integration",
    name: "BESS Integration Study",
    description: "Battery storage sizing, protection, harmonics and grid-forming or islanded operation.",
  },
  {
    group: "Renewable & Grid Integration",
    name: "Sub-Synchronous Oscillation Screening",
    description: "Interactions between inverter controls, series compensation and weak grids, screened and mitigated.",
  },
  {
    group: "Safety, Reliability & Compliance",
    name: "Arc Flash Hazard Analysis",
    description: "Incident energy and boundaries to IEEE 1584-2018, with labels and ways to reduce the energy.",
  },
  {
    group: "Safety, Reliability & Compliance",
    name: "Insulation Coordination",
    description: "Surge arrester selection and clearances against lightning and switching overvoltages.",
  },
  {
    group: "Safety, Reliability & Compliance",
    name: "Reliability Analysis",
    description: "Outage frequency, duration and unserved energy for alternative network configurations.",
  },
  {
    group: "Safety, Reliability & Compliance",
    name: "Grid Code Compliance Study",
    description: "Evidence that a plant or network meets the CEA connectivity standards and the state grid code.",
  },
];
