// Dragging the team list's rows with the mouse (or a finger): loaded by admin-client.ts only on
// the team page, for those who may change the team. The page works without it: "Move up" and
// "Move down" are plain forms. A row is dragged by its handle; when it is let go somewhere new,
// the whole order is posted (POST <data-team-order>, JSON { order: [ids] }) and the page is
// loaded again from the server's answer, so what it shows is what was saved. A refusal (the team
// changed meanwhile) puts the rows back and says why.

type OrderAnswer = { redirect?: string; message?: string };

const idsOf = (body: HTMLTableSectionElement) =>
  [...body.rows].map((row) => row.dataset.memberId ?? "").filter((id) => id !== "");

function say(status: HTMLElement | null, text: string, kind: "progress" | "error") {
  if (!status) return;
  status.textContent = text;
  status.setAttribute("role", kind === "error" ? "alert" : "status");
  status.classList.toggle("text-red-800", kind === "error");
}

async function postOrder(action: string, order: string[]): Promise<OrderAnswer & { ok: boolean }> {
  try {
    const response = await fetch(action, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify({ order }),
      credentials: "same-origin",
    });
    const answer = (await response.json().catch(() => ({}))) as OrderAnswer;
    return {
      ok: response.ok,
      ...answer,
      message: answer.message ?? (response.ok ? undefined : `The server answered ${response.status}.`),
    };
  } catch {
    return { ok: false, message: "The order could not be sent: check the connection and try again." };
  }
}

/** The row the pointer is over the top half of, among the others: the dragged row goes before it. */
function rowBefore(body: HTMLTableSectionElement, dragged: HTMLTableRowElement, y: number) {
  return [...body.rows].find((row) => {
    if (row === dragged) return false;
    const box = row.getBoundingClientRect();
    return y < box.top + box.height / 2;
  });
}

export function startDragOrder(body: HTMLTableSectionElement): void {
  const action = body.dataset.teamOrder;
  if (!action) return;
  const status = document.querySelector<HTMLElement>("[data-team-order-status]");
  document.querySelector<HTMLElement>("[data-team-drag-hint]")?.classList.remove("hidden");
  let busy = false;

  for (const handle of body.querySelectorAll<HTMLElement>("[data-drag-handle]")) {
    handle.classList.remove("hidden");
    handle.classList.add("inline-block");
    handle.addEventListener("pointerdown", (event) => {
      if (busy || event.button !== 0) return;
      const row = handle.closest("tr");
      if (!row) return;
      event.preventDefault();
      const before = idsOf(body);
      const name = row.dataset.memberName ?? "The member";
      const pointer = event.pointerId;
      // The window follows the pointer, not the handle: moving the row in the page would end a
      // capture held by its handle.
      row.dataset.dragging = "true";
      const move = (moved: PointerEvent) => {
        if (moved.pointerId !== pointer) return;
        const next = rowBefore(body, row, moved.clientY);
        if (next !== row.nextElementSibling) body.insertBefore(row, next ?? null);
      };
      const putBack = () => {
        for (const id of before) {
          const original = body.querySelector<HTMLTableRowElement>(`tr[data-member-id="${id}"]`);
          if (original) body.appendChild(original);
        }
      };
      const finish = async (cancelled: boolean) => {
        window.removeEventListener("pointermove", move);
        window.removeEventListener("pointerup", dropped);
        window.removeEventListener("pointercancel", cancel);
        window.removeEventListener("blur", cancel);
        delete row.dataset.dragging;
        const after = idsOf(body);
        if (cancelled || after.join() === before.join()) {
          putBack();
          return;
        }
        busy = true;
        say(
          status,
          `Saving the new order: ${name} is now number ${after.indexOf(row.dataset.memberId!) + 1}…`,
          "progress",
        );
        const answer = await postOrder(action, after);
        if (answer.ok && answer.redirect) {
          window.location.assign(answer.redirect);
          return;
        }
        putBack();
        busy = false;
        say(status, answer.message ?? "The order was not saved.", "error");
      };
      const dropped = (up: PointerEvent) => {
        if (up.pointerId === pointer) void finish(false);
      };
      const cancel = () => void finish(true);
      window.addEventListener("pointermove", move);
      window.addEventListener("pointerup", dropped);
      window.addEventListener("pointercancel", cancel);
      window.addEventListener("blur", cancel);
    });
  }
  body.dataset.teamOrderReady = "true";
}
