import { useEffect, useState } from 'react';

/** docs/product.md, Constants: toasts show one at a time, 5000 ms by default. */
export const TOAST_DURATION_MS = 5000;

type Sonner = typeof import('sonner');

/*
 * Sonner is not needed to render a page, so it loads after the first render, outside the
 * first-load budget (vite.dashboard.config.ts). Toasts wait for the mounted Toaster:
 * Sonner drops those sent before its Toaster subscribes.
 */
let sonner: Promise<Sonner> | undefined;
const loadSonner = () => (sonner ??= import('sonner'));
let toasterMounted: () => void = () => {};
const toasterReady = new Promise<void>((resolve) => {
  toasterMounted = resolve;
});

function withToast(send: (toast: Sonner['toast']) => void): void {
  void Promise.all([loadSonner(), toasterReady]).then(([{ toast }]) => {
    placeBelowHeader();
    send(toast);
  });
}

/** The gap between the header's bottom edge and a toast. */
const HEADER_GAP_PX = 8;

/**
 * Toasts sit just below the app header (AppHeader's data-app-header) while it is on screen, so
 * they never cover the user's name, the menu or the navigation; once it has scrolled away they
 * move up to the top. Kept in a CSS variable the Toaster's offset reads, updated when a toast is
 * sent and as the page scrolls or resizes. Screens without the header (sign-in) keep Sonner's.
 */
function placeBelowHeader(): void {
  const header = document.querySelector('[data-app-header]');
  const root = document.documentElement.style;
  if (!header) {
    root.removeProperty('--toast-top');
    return;
  }
  const bottom = Math.max(header.getBoundingClientRect().bottom, 0);
  const top = `${Math.round(bottom) + HEADER_GAP_PX}px`;
  if (root.getPropertyValue('--toast-top') !== top) root.setProperty('--toast-top', top);
}

function useToastsBelowHeader(): void {
  useEffect(() => {
    let frame = 0;
    const schedule = () => {
      if (frame) return;
      frame = requestAnimationFrame(() => {
        frame = 0;
        placeBelowHeader();
      });
    };
    // The header grows when its menu opens: a click can change where it ends.
    const events = ['scroll', 'resize', 'click'] as const;
    for (const type of events) window.addEventListener(type, schedule, { passive: true });
    return () => {
      cancelAnimationFrame(frame);
      for (const type of events) window.removeEventListener(type, schedule);
    };
  }, []);
}

/**
 * A toast sent in the same task as a navigation ("Welcome back!" then /) reports where the
 * user is going and goes with them; any other toast belongs to the page it was sent on, and
 * a navigation clears it, so "Login Failed" does not follow the user to /register.
 */
let sentThisTask = false;

function markSent(): void {
  sentThisTask = true;
  setTimeout(() => {
    sentThisTask = false;
  });
}

/** wouter's browser location announces its own pushState and replaceState as events of these names. */
const NAVIGATION_EVENTS = ['popstate', 'pushState', 'replaceState'] as const;

function useClearedOnNavigation(): void {
  useEffect(() => {
    let pathname = window.location.pathname;
    const onNavigate = () => {
      if (window.location.pathname === pathname) return;
      pathname = window.location.pathname;
      if (!sentThisTask) dismissToasts();
    };
    for (const type of NAVIGATION_EVENTS) window.addEventListener(type, onNavigate);
    return () => {
      for (const type of NAVIGATION_EVENTS) window.removeEventListener(type, onNavigate);
    };
  }, []);
}

/** Runs its effect after Sonner's Toaster, its elder sibling, has subscribed in its own. */
function MountedSignal() {
  useEffect(() => toasterMounted(), []);
  return null;
}

export function Toaster() {
  useClearedOnNavigation();
  useToastsBelowHeader();
  const [loaded, setLoaded] = useState<Sonner>();
  useEffect(() => {
    void loadSonner().then(setLoaded);
  }, []);
  if (!loaded) return null;
  const SonnerToaster = loaded.Toaster;
  return (
    <>
      <SonnerToaster
        // At the top, toasts stay off the content: at the bottom they covered the results' cost
        // tile, which ends the first screenful. Below the header, not over it (placeBelowHeader):
        // over it they hid the user's name and the menu at 375 px. On the sign-in screens' wide
        // layout they centre over the form's side (AuthLayout's data-auth-layout), not across both panels.
        position="top-center"
        offset={{ top: 'var(--toast-top, 24px)' }}
        mobileOffset={{ top: 'var(--toast-top, 16px)' }}
        className="lg:[body:has([data-auth-layout])_&]:left-[calc(min(42vw,36rem)+(100vw-min(42vw,36rem))/2)]!"
        visibleToasts={1}
        duration={TOAST_DURATION_MS}
        // Sonner's stylesheet is unlayered, so these overrides need Tailwind's `!`. Dark text on
        // white keeps AA contrast, which Sonner's rich colours miss for error toasts.
        toastOptions={{
          classNames: {
            toast: 'border-stone-200! bg-white! text-stone-900! shadow-lg!',
            title: 'text-[15px]! font-semibold!',
            description: 'text-sm! text-stone-700!',
            success: 'border-l-4! border-l-green-700! [&_[data-icon]]:text-green-700!',
            error: 'border-l-4! border-l-red-700! [&_[data-icon]]:text-red-700!',
          },
        }}
      />
      <MountedSignal />
    </>
  );
}

interface ToastContent {
  title: string;
  description?: string;
}

/**
 * A new toast replaces the one showing, so the latest message is never hidden
 * behind an older one. Sonner's region is an aria-live area, so screen readers
 * announce each toast.
 */
export function showToast({ title, description }: ToastContent): void {
  markSent();
  withToast((toast) => {
    toast.dismiss();
    toast.success(title, { description });
  });
}

export function showErrorToast({ title, description }: ToastContent): void {
  markSent();
  withToast((toast) => {
    toast.dismiss();
    toast.error(title, { description });
  });
}

/** Clears a message that no longer holds, e.g. an earlier "Payment Failed" once a payment succeeds. */
export function dismissToasts(): void {
  withToast((toast) => toast.dismiss());
}
