import { useEffect, useState } from 'react';

/** SPEC section 9: toasts show one at a time, 5000 ms by default. */
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
  void Promise.all([loadSonner(), toasterReady]).then(([{ toast }]) => send(toast));
}

/** Runs its effect after Sonner's Toaster, its elder sibling, has subscribed in its own. */
function MountedSignal() {
  useEffect(() => toasterMounted(), []);
  return null;
}

export function Toaster() {
  const [loaded, setLoaded] = useState<Sonner>();
  useEffect(() => {
    void loadSonner().then(setLoaded);
  }, []);
  if (!loaded) return null;
  const SonnerToaster = loaded.Toaster;
  return (
    <>
      <SonnerToaster
        // Bottom centre keeps the header (credits, Logout) uncovered on every screen size.
        position="bottom-center"
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
  withToast((toast) => {
    toast.dismiss();
    toast.success(title, { description });
  });
}

export function showErrorToast({ title, description }: ToastContent): void {
  withToast((toast) => {
    toast.dismiss();
    toast.error(title, { description });
  });
}

/** Clears a message that no longer holds, e.g. an earlier "Payment Failed" once a payment succeeds. */
export function dismissToasts(): void {
  withToast((toast) => toast.dismiss());
}
