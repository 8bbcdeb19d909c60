// Move up and Move down for one item of an ordered kind's list (the team, testimonials, client
// logos): plain forms, so the keyboard and no script are enough. After a move the moved item's
// button has the focus again; at that end of the list (where it is disabled), the other one.

export const moveButtonId = (id: string, direction: "up" | "down") => `move-${direction}-${id}`;

export function MoveButtons({
  row,
  last,
  focus,
  action,
}: {
  row: { id: string; name: string; position: number };
  last: number;
  focus: { id: string; direction: "up" | "down" } | undefined;
  /** The address of the item's Move form. */
  action: string;
}) {
  const atEnd = { up: row.position === 1, down: row.position === last };
  const other = { up: "down", down: "up" } as const;
  const wanted = focus?.id === row.id ? focus.direction : undefined;
  const focused = wanted && (atEnd[wanted] ? other[wanted] : wanted);
  return (
    <div className="flex flex-nowrap gap-1">
      {(["up", "down"] as const).map((direction) => (
        <form key={direction} method="post" action={action}>
          <input type="hidden" name="direction" value={direction} />
          <button
            type="submit"
            id={moveButtonId(row.id, direction)}
            className="admin-button-secondary px-3 whitespace-nowrap disabled:cursor-not-allowed disabled:opacity-50"
            disabled={atEnd[direction]}
            autoFocus={focused === direction && !atEnd[direction] ? true : undefined}
          >
            {direction === "up" ? "Move up" : "Move down"}
            <span className="sr-only"> {row.name}</span>
          </button>
        </form>
      ))}
    </div>
  );
}
