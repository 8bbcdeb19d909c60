// Mission and vision, shown on Home and About.

export const mission =
  "To give every utility, developer and plant owner we work with an electrical system they can trust: studies that are modelled from real data, recommendations an operator can act on, and designs that pass grid-code and safety scrutiny the first time.";

export const vision =
  "A power system in India that takes on hundreds of gigawatts of solar, wind and storage without losing stability, protection selectivity or power quality, engineered by people who understand both the physics and the regulations.";
