import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

// SPEC sections 4 and 9: at most one toast; add, update, dismiss and remove; a dismissed toast
// removed after 1,000,000 ms. The store lives in its module, so every test imports a fresh one.

type Store = typeof import("./use-toast.ts");
let store: Store;

beforeEach(async () => {
  vi.useFakeTimers();
  vi.resetModules();
  store = await import("./use-toast.ts");
});
afterEach(() => {
  vi.useRealTimers();
});

const toasts = () => store.getToastState().toasts;

describe("the toast store", () => {
  it("has the spec's constants", () => {
    expect(store.TOAST_LIMIT).toBe(1);
    expect(store.TOAST_REMOVE_DELAY_MS).toBe(1_000_000);
    expect(store.TOAST_DURATION_MS).toBe(5000);
  });

  it("adds a toast, open, in the default look unless asked for the destructive one", () => {
    const { id } = store.toast({ title: "Message Sent Successfully", description: "Thank you." });
    expect(toasts()).toEqual([
      { id, title: "Message Sent Successfully", description: "Thank you.", variant: "default", open: true },
    ]);
    const error = store.toast({ title: "Error Sending Message", variant: "destructive" });
    expect(toasts()).toEqual([{ id: error.id, title: "Error Sending Message", variant: "destructive", open: true }]);
  });

  it("keeps at most one toast: the newest replaces the one before", () => {
    store.toast({ title: "first" });
    store.toast({ title: "second" });
    const third = store.toast({ title: "third" });
    expect(toasts()).toHaveLength(1);
    expect(toasts()[0]).toMatchObject({ id: third.id, title: "third" });
  });

  it("updates a toast in place, and leaves it alone when the update names another", () => {
    const shown = store.toast({ title: "Sending", description: "One moment" });
    shown.update({ title: "Sent", variant: "destructive" });
    expect(toasts()).toEqual([
      { id: shown.id, title: "Sent", description: "One moment", variant: "destructive", open: true },
    ]);
    store.dispatch({ type: "UPDATE_TOAST", toast: { id: "no-such-toast", title: "Other" } });
    expect(toasts()[0]?.title).toBe("Sent");
  });

  it("dismisses a toast (closed, still there) and removes it 1,000,000 ms later", () => {
    const shown = store.toast({ title: "Message Sent Successfully" });
    shown.dismiss();
    expect(toasts()).toEqual([expect.objectContaining({ id: shown.id, open: false })]);
    vi.advanceTimersByTime(999_999);
    expect(toasts()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(toasts()).toEqual([]);
  });

  it("dismisses every toast when none is named, and schedules one removal however often it is dismissed", () => {
    const shown = store.toast({ title: "one" });
    store.dispatch({ type: "DISMISS_TOAST" });
    expect(toasts()[0]).toMatchObject({ id: shown.id, open: false });
    vi.advanceTimersByTime(500_000);
    store.dispatch({ type: "DISMISS_TOAST", toastId: shown.id });
    vi.advanceTimersByTime(500_000);
    expect(toasts()).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("removes a named toast at once, or every toast when none is named", () => {
    const shown = store.toast({ title: "one" });
    store.dispatch({ type: "REMOVE_TOAST", toastId: "another" });
    expect(toasts()).toHaveLength(1);
    store.dispatch({ type: "REMOVE_TOAST", toastId: shown.id });
    expect(toasts()).toEqual([]);
    store.toast({ title: "two" });
    store.dispatch({ type: "REMOVE_TOAST" });
    expect(toasts()).toEqual([]);
  });

  it("tells its subscribers after every action, until they unsubscribe", () => {
    const listener = vi.fn();
    const unsubscribe = store.subscribeToToasts(listener);
    const shown = store.toast({ title: "one" });
    shown.update({ title: "two" });
    shown.dismiss();
    expect(listener).toHaveBeenCalledTimes(3);
    unsubscribe();
    vi.advanceTimersByTime(store.TOAST_REMOVE_DELAY_MS);
    expect(toasts()).toEqual([]);
    expect(listener).toHaveBeenCalledTimes(3);
  });
});
