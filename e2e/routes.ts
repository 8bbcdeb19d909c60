/** Every route a visitor can reach, with the heading its first HTML must already hold. */
export const siteRoutes = [
  { path: "/", heading: "Power-system engineering you can build on" },
  { path: "/about", heading: "Engineers of reliable power systems" },
  { path: "/services", heading: "Power System Studies" },
  { path: "/industries", heading: "Industries We Serve" },
  { path: "/projects", heading: "Projects" },
  { path: "/projects/kutch-solar-park-grid-connection", heading: "300 MW Solar Park Grid Connection, Kutch" },
  { path: "/blog", heading: "Industry Insights" },
  { path: "/blog/ieee-519-harmonics-at-a-vfd-heavy-plant", heading: "IEEE 519 at a Drive-Heavy Plant: Measuring, Modelling and Fixing Harmonics" },
  { path: "/contact", heading: "Get In Touch" },
  { path: "/thank-you", heading: "Thank You!" },
  { path: "/privacy", heading: "Privacy Policy" },
  { path: "/terms", heading: "Terms of Service" },
  { path: "/cookies", heading: "Cookie Policy" },
  { path: "/no-such-page", heading: "Page Not Found", status: 404 },
] as const;
