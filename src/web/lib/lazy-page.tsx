import { type ComponentType, lazy } from "react";

// A page whose code loads only when it is first shown (route-level code splitting), but which
// renders synchronously once loaded: the browser loads the current page's code before it
// hydrates, and the server loads every page before it renders, so neither ever suspends on the
// first render and the HTML matches.

export type LazyPage<P> = ComponentType<P> & { preload: () => Promise<void>; module: string };

export function lazyPage<P extends object>(module: string, loader: () => Promise<ComponentType<P>>): LazyPage<P> {
  let Loaded: ComponentType<P> | undefined;
  const preload = () =>
    loader().then((component) => {
      Loaded = component;
    });
  const Suspending = lazy(async () => ({ default: await loader() }));
  const Page = ((props: P) => (Loaded ? <Loaded {...props} /> : <Suspending {...props} />)) as LazyPage<P>;
  Page.preload = preload;
  Page.module = module;
  return Page;
}
