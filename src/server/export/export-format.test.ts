import { describe, expect, it } from "vitest";
import { csvCell, parseExportArgs, parseSince, printable, toCsv, toJson, toTable } from "./export-format.ts";

describe("csvCell", () => {
  it.each([
    ["=SUM(A1:A9)", `"'=SUM(A1:A9)"`],
    ["+91 79 4000 0000", `"'+91 79 4000 0000"`],
    ["-2+3", `"'-2+3"`],
    ["@cmd", `"'@cmd"`],
    ["\t=1", `"'\t'=1"`],
    ['=HYPERLINK("http://x","y")', `"'=HYPERLINK(""http://x"",""y"")"`],
    ["plain text", '"plain text"'],
    ["a, b", '"a, b"'],
    ["line\nbreak", '"line\nbreak"'],
    ["", '""'],
  ])("neutralises and quotes %j", (input, output) => {
    expect(csvCell(input)).toBe(output);
  });

  // A spreadsheet that splits on ";" (Excel in many locales), or on "," or tab whatever the quotes,
  // starts a new cell after each: a formula there must be neutralised too.
  it.each([
    ["Study;=cmd|' /C calc'!A0", `"Study;'=cmd|' /C calc'!A0"`],
    ["a; =1+1", `"a; '=1+1"`],
    ["a,+1", `"a,'+1"`],
    ["a\t@SUM(1)", `"a\t'@SUM(1)"`],
    ["x;y;-1", `"x;y;'-1"`],
    ['a;"=1"', `"a;""'=1"""`],
    ["a=b; c+d, e-f", `"a=b; c+d, e-f"`],
    // A line break starts a new row for a reader that ignores the quotes (a \r\n is kept as \n).
    ['Thanks\n=HYPERLINK("http://x","y")', `"Thanks\n'=HYPERLINK(""http://x"",""y"")"`],
    ["Thanks\r\n+1", `"Thanks\n'+1"`],
    ['a\n "@x"', `"a\n ""'@x"""`],
  ])("neutralises a formula after a separator inside %j", (input, output) => {
    expect(csvCell(input)).toBe(output);
  });

  it("quotes every cell, so no reader that honours quotes splits one on ; or ,", () => {
    for (const input of ["a;b", "a,b", "a\tb", "1;2;3"]) expect(csvCell(input)).toBe(`"${input}"`);
  });

  it("writes a header row and CRLF line ends", () => {
    expect(toCsv(["Email", "Note"], [["a@example.com", null]])).toBe('"Email","Note"\r\n"a@example.com",""\r\n');
  });
});

describe("toTable", () => {
  it("aligns columns and clips long cells to one line", () => {
    const table = toTable(["Name", "Message"], [["Asha", "first line\nsecond line that is rather long"]], 20);
    expect(table.split("\n")).toEqual([
      "Name  Message",
      "----  --------------------",
      "Asha  first line second l…",
      "",
    ]);
  });
});

describe("parseSince and parseExportArgs", () => {
  const now = new Date("2026-11-22T12:00:00Z");
  it("reads days, hours, minutes and dates", () => {
    expect(parseSince("7d", now).toISOString()).toBe("2026-11-15T12:00:00.000Z");
    expect(parseSince("24h", now).toISOString()).toBe("2026-11-21T12:00:00.000Z");
    expect(parseSince("30m", now).toISOString()).toBe("2026-11-22T11:30:00.000Z");
    expect(parseSince("2026-01-31", now).toISOString()).toBe("2026-01-31T00:00:00.000Z");
    expect(() => parseSince("last week", now)).toThrow(/--since must be like 7d/);
  });

  it("reads the options and refuses unknown ones with a clear message", () => {
    expect(parseExportArgs(["--format", "csv", "--spam"], { allowSpam: true })).toEqual({ format: "csv", spam: true });
    expect(parseExportArgs(["--format=json"], { allowSpam: true }).format).toBe("json");
    expect(() => parseExportArgs(["--format", "xml"], { allowSpam: true })).toThrow(
      "--format must be table, csv or json",
    );
    expect(() => parseExportArgs(["--spam"], { allowSpam: false })).toThrow("unknown option --spam");
    expect(() => parseExportArgs(["--since"], { allowSpam: true })).toThrow("--since needs a value");
    expect(parseExportArgs(["--remove", " Reader@Example.com "], { allowSpam: false, allowRemove: true }).remove).toBe(
      "reader@example.com",
    );
    expect(parseExportArgs(["--remove=reader@example.com"], { allowSpam: false, allowRemove: true }).remove).toBe(
      "reader@example.com",
    );
    expect(() => parseExportArgs(["--remove", "a@example.com"], { allowSpam: true })).toThrow(
      "unknown option --remove",
    );
    expect(() =>
      parseExportArgs(["--remove", "a@example.com", "--format", "csv"], { allowSpam: false, allowRemove: true }),
    ).toThrow("--remove <email> takes no other option");
  });
});

describe("printable", () => {
  it("removes control characters but tab and line feed, turns CR LF and CR into LF, and drops bidi overrides", () => {
    expect(printable("a\u0000b\u001b]0;t\u0007c\u007fd\u009be\tf\r\ng\rh\u202ei\u2066j")).toBe("ab]0;tcde\tf\ng\nhij");
  });

  it("applies to every format", () => {
    expect(csvCell("\u001b=cmd")).toBe(`"'=cmd"`);
    expect(toTable(["M"], [["x\u001b[2Ky"]])).not.toContain("\u001b");
    expect(toJson({ "k\u001b": ["v\u009b", { w: "\u007f" }], n: 1, z: null })).toBe(
      '{\n  "k": [\n    "v",\n    {\n      "w": ""\n    }\n  ],\n  "n": 1,\n  "z": null\n}\n',
    );
  });
});
