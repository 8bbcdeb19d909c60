// Sentences the studio's editor says, shared by its page (rendered on the server) and its script
// (which updates them): one wording in both places.

/** "Meera Shah is editing this", "Meera Shah and Ravi Patel are editing this"; "" for nobody. */
export function presenceText(names: readonly string[]): string {
  const others = names.filter((name) => !name.startsWith("you"));
  const self = names.length > others.length;
  const list =
    others.length <= 1 ? others.join("") : `${others.slice(0, -1).join(", ")} and ${others[others.length - 1]}`;
  const parts = [
    others.length ? `${list} ${others.length === 1 ? "is" : "are"} editing this.` : "",
    self ? "You have it open in another window too." : "",
  ];
  return parts.filter(Boolean).join(" ");
}

// Times in India, as every time in the back office; the browser's Intl knows the zone, so the
// editor's chunk needs none of the server's date code.
const indiaParts = new Intl.DateTimeFormat("en-GB", {
  timeZone: "Asia/Kolkata",
  year: "numeric",
  month: "numeric",
  day: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
});
const months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

function inIndia(moment: Date) {
  const parts = Object.fromEntries(indiaParts.formatToParts(moment).map((part) => [part.type, part.value]));
  return {
    day: Number(parts.day),
    month: months[Number(parts.month) - 1]!,
    year: parts.year!,
    time: `${parts.hour!.padStart(2, "0")}:${parts.minute!.padStart(2, "0")}`,
  };
}

/** "Saved at 14:32". */
export function savedAtText(moment: Date): string {
  return `Saved at ${inIndia(moment).time}`;
}

/** "26 Nov 2026, 14:32 IST", as src/web/admin/format.ts writes it on the server. */
export function indiaDateTimeText(moment: Date): string {
  const { day, month, year, time } = inIndia(moment);
  return `${day} ${month} ${year}, ${time} IST`;
}
