import { useSyncExternalStore } from "react";

// Toast state (SPEC sections 4 and 9): at most one toast, add / update / dismiss / remove, and a
// dismissed toast removed after TOAST_REMOVE_DELAY_MS. A module-level store so that any component
// can raise a toast without a provider.

export const TOAST_LIMIT = 1;
export const TOAST_REMOVE_DELAY_MS = 1_000_000;
export const TOAST_DURATION_MS = 5000;

export type ToastVariant = "default" | "destructive";

export type ToastItem = {
  id: string;
  title?: string;
  description?: string;
  variant: ToastVariant;
  open: boolean;
};

type Action =
  | { type: "ADD_TOAST"; toast: ToastItem }
  | { type: "UPDATE_TOAST"; toast: Partial<ToastItem> & { id: string } }
  | { type: "DISMISS_TOAST"; toastId?: string }
  | { type: "REMOVE_TOAST"; toastId?: string };

export type ToastState = { toasts: ToastItem[] };

const removeTimers = new Map<string, ReturnType<typeof setTimeout>>();

export function reducer(state: ToastState, action: Action): ToastState {
  switch (action.type) {
    case "ADD_TOAST":
      return { toasts: [action.toast, ...state.toasts].slice(0, TOAST_LIMIT) };
    case "UPDATE_TOAST":
      return { toasts: state.toasts.map((t) => (t.id === action.toast.id ? { ...t, ...action.toast } : t)) };
    case "DISMISS_TOAST":
      return {
        toasts: state.toasts.map((t) =>
          action.toastId === undefined || t.id === action.toastId ? { ...t, open: false } : t,
        ),
      };
    case "REMOVE_TOAST":
      return { toasts: action.toastId === undefined ? [] : state.toasts.filter((t) => t.id !== action.toastId) };
  }
}

const initialState: ToastState = { toasts: [] };
let memoryState: ToastState = initialState;
const listeners = new Set<() => void>();

/** The toasts now (a new object after every action). */
export const getToastState = (): ToastState => memoryState;

/** Calls the listener after every action; returns the unsubscribe. */
export function subscribeToToasts(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function scheduleRemoval(toastId: string) {
  if (removeTimers.has(toastId)) return;
  removeTimers.set(
    toastId,
    setTimeout(() => {
      removeTimers.delete(toastId);
      dispatch({ type: "REMOVE_TOAST", toastId });
    }, TOAST_REMOVE_DELAY_MS),
  );
}

export function dispatch(action: Action) {
  if (action.type === "DISMISS_TOAST") {
    const ids = action.toastId === undefined ? memoryState.toasts.map((t) => t.id) : [action.toastId];
    ids.forEach(scheduleRemoval);
  }
  memoryState = reducer(memoryState, action);
  for (const listener of listeners) listener();
}

let count = 0;

export function toast(input: { title?: string; description?: string; variant?: ToastVariant }) {
  count = (count + 1) % Number.MAX_SAFE_INTEGER;
  const id = String(count);
  dispatch({ type: "ADD_TOAST", toast: { id, variant: "default", ...input, open: true } });
  return {
    id,
    update: (next: Partial<Omit<ToastItem, "id">>) => dispatch({ type: "UPDATE_TOAST", toast: { ...next, id } }),
    dismiss: () => dispatch({ type: "DISMISS_TOAST", toastId: id }),
  };
}

export function useToasts(): ToastState & { dismiss: (toastId?: string) => void } {
  // The server never raises a toast: it renders the empty region.
  const state = useSyncExternalStore(subscribeToToasts, getToastState, () => initialState);
  return { ...state, dismiss: (toastId) => dispatch({ type: "DISMISS_TOAST", toastId }) };
}
