import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CircleHelp, LogOut, Menu, ShieldAlert, X } from 'lucide-react';
import { lazy, Suspense, useRef, useState, type ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { homePathFor, mayUse, PAGE_AREAS } from '../../core/permissions';
import { ROLE_LABELS, type TeamRole } from '../../core/team-roles';
import { api } from '../api/client';
import { endSession, useSession } from '../api/session';
import { Logo } from './logo';
import { showErrorToast, showToast } from './toast';
import { buttonStyles } from './ui';

const NAV_LINKS: readonly { href: string; label: string; onlyFor?: TeamRole }[] = [
  // The crew's home. The owner and the office reach the crews' work through Jobs.
  { href: '/my-days', label: 'My days', onlyFor: 'crew' },
  { href: '/settings', label: 'Settings' },
  { href: '/admin/businesses', label: 'Business Admin' },
  { href: '/checkout', label: 'Get Tokens' },
  { href: '/history', label: 'History' },
  { href: '/jobs', label: 'Jobs' },
  { href: '/schedule', label: 'Schedule' },
  { href: '/invoices', label: 'Invoices' },
];

/** The links a role may follow (core/permissions.ts PAGE_AREAS): a team of one's owner sees every one but My days. */
function linksFor(role: TeamRole) {
  return NAV_LINKS.filter((link) => (link.onlyFor ? link.onlyFor === role : mayUse(role, PAGE_AREAS[link.href] ?? 'signedIn')));
}

type HelpDialog = 'how-it-works' | 'safety-guide';

/*
 * Loaded when first needed rather than with the header: the crew's app (dashboard/crew/main.tsx)
 * shows this header on a phone on a slow signal, where every kilobyte before My days counts
 * (docs/performance.md, The crew's phone), and a crew member has no credits.
 */
const CreditsBadge = lazy(() => import('./credits-badge').then((m) => ({ default: m.CreditsBadge })));
const HelpDialogs = lazy(() => import('./help-dialogs').then((m) => ({ default: m.HelpDialogs })));

/** The badge's place while its code loads, as it reads while the balance loads. */
function CreditsBadgeLoading() {
  return (
    <span className="inline-flex items-center gap-1.5 rounded-full border border-green-200 bg-green-50 px-3 py-1 text-sm font-medium whitespace-nowrap text-green-900">
      Loading credits…
    </span>
  );
}

function useLogout() {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  return useMutation({
    mutationFn: api.auth.logout,
    onSuccess: () => {
      endSession(queryClient);
      showToast({ title: 'Logged Out', description: 'You have been successfully logged out.' });
      navigate('/login');
    },
    onError: () => {
      showErrorToast({ title: 'Logout Failed', description: 'There was an issue logging out. Please try again.' });
    },
  });
}

function NavLink({ href, children, onNavigate, block = false }: {
  href: string;
  children: ReactNode;
  onNavigate?: () => void;
  block?: boolean;
}) {
  const [location] = useLocation();
  // A page within a section (a job at /jobs/12, an analysis at /history/12) is still that section's.
  const current = location === href || location.startsWith(`${href}/`);
  return (
    <Link
      href={href}
      onClick={onNavigate}
      aria-current={current ? 'page' : undefined}
      className={`rounded-lg px-3 py-2 text-sm font-medium transition-colors ${block ? 'block' : ''} ${
        current ? 'bg-green-100 text-green-900' : 'text-stone-700 hover:bg-stone-100 hover:text-stone-900'
      }`}
    >
      {children}
    </Link>
  );
}

const helpButtonClass =
  'inline-flex items-center gap-1.5 rounded-lg px-3 py-2 text-sm font-medium text-stone-700 hover:bg-stone-100 hover:text-stone-900';

/**
 * The signed-in header of every dashboard page: help dialogs, navigation, the
 * credits badge, who is signed in and Logout. Below the sm breakpoint the
 * navigation and actions move into a menu behind one button.
 */
export function AppHeader() {
  const { data: session } = useSession();
  const user = session?.user;
  const role = session?.member.role ?? 'owner';
  const links = linksFor(role);
  // "Ana Ruiz · Office": who is signed in and their role, as the team list names them.
  const who = session ? `${session.member.name} · ${ROLE_LABELS[role]}` : '';
  const logout = useLogout();
  const [menuOpen, setMenuOpen] = useState(false);
  const [dialog, setDialog] = useState<HelpDialog | null>(null);
  const menuButtonRef = useRef<HTMLButtonElement>(null);

  function openDialog(which: HelpDialog) {
    setMenuOpen(false);
    setDialog(which);
  }

  return (
    <header data-app-header className="border-b border-stone-200 bg-white">
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <div className="flex flex-wrap items-center gap-x-4 gap-y-2 py-3">
          <Link href={homePathFor(role)} className="order-1 mr-auto rounded-lg">
            <Logo />
          </Link>

          {/* On a narrow screen the badge drops below the welcome line rather than cut the name short. */}
          <div className="order-3 flex w-full min-w-0 flex-wrap items-center justify-between gap-x-3 gap-y-1.5 sm:order-2 sm:w-auto sm:justify-end">
            <div className="min-w-0 max-w-full text-sm text-stone-700">
              {/* The owner chose a username when registering and is greeted by it, as before teams;
                  someone who joined signs in with their e-mail and never chose one: their team is named. */}
              {role === 'owner' ? (
                <p className="truncate">
                  Welcome, <span className="font-semibold text-stone-900">{user?.username}</span>
                </p>
              ) : (
                <p className="truncate font-semibold text-stone-900">{session?.member.businessName}</p>
              )}
              {/* On a phone the role is in the menu, beside Logout. */}
              <p data-testid="signed-in-as" className="hidden truncate text-xs text-stone-600 sm:block">
                {who}
              </p>
            </div>
            {mayUse(role, 'credits') ? (
              <Suspense fallback={<CreditsBadgeLoading />}>
                <CreditsBadge />
              </Suspense>
            ) : null}
          </div>

          <div className="order-3 hidden sm:block">
            <button
              type="button"
              className={`${buttonStyles.secondary} py-2`}
              onClick={() => logout.mutate()}
              disabled={logout.isPending}
            >
              <LogOut aria-hidden="true" className="size-4" />
              Logout
            </button>
          </div>

          <button
            ref={menuButtonRef}
            type="button"
            aria-label="Menu"
            aria-expanded={menuOpen}
            aria-controls="mobile-menu"
            onClick={() => setMenuOpen((open) => !open)}
            className="order-2 rounded-lg p-2 text-stone-800 hover:bg-stone-100 sm:hidden"
          >
            {menuOpen ? <X aria-hidden="true" className="size-6" /> : <Menu aria-hidden="true" className="size-6" />}
          </button>
        </div>

        <nav aria-label="Main" className="-mx-3 hidden flex-wrap items-center justify-between gap-2 pb-2 sm:flex">
          <div className="flex flex-wrap items-center gap-1">
            {links.map((link) => (
              <NavLink key={link.href} href={link.href}>
                {link.label}
              </NavLink>
            ))}
          </div>
          <div className="flex flex-wrap items-center gap-1">
            <button type="button" className={helpButtonClass} onClick={() => openDialog('how-it-works')}>
              <CircleHelp aria-hidden="true" className="size-4" />
              How It Works
            </button>
            <button type="button" className={helpButtonClass} onClick={() => openDialog('safety-guide')}>
              <ShieldAlert aria-hidden="true" className="size-4" />
              Safety Guide
            </button>
          </div>
        </nav>
      </div>

      {menuOpen ? (
        <nav
          id="mobile-menu"
          aria-label="Mobile"
          className="border-t border-stone-200 px-4 py-3 sm:hidden"
          onKeyDown={(event) => {
            if (event.key === 'Escape') {
              setMenuOpen(false);
              menuButtonRef.current?.focus();
            }
          }}
        >
          <ul className="flex flex-col gap-1">
            <li>
              <button type="button" className={`${helpButtonClass} w-full`} onClick={() => openDialog('how-it-works')}>
                <CircleHelp aria-hidden="true" className="size-4" />
                How It Works
              </button>
            </li>
            <li>
              <button type="button" className={`${helpButtonClass} w-full`} onClick={() => openDialog('safety-guide')}>
                <ShieldAlert aria-hidden="true" className="size-4" />
                Safety Guide
              </button>
            </li>
            {links.map((link) => (
              <li key={link.href}>
                <NavLink href={link.href} block onNavigate={() => setMenuOpen(false)}>
                  {link.label}
                </NavLink>
              </li>
            ))}
            <li className="mt-2 border-t border-stone-200 pt-3">
              <p className="mb-2 px-3 text-sm text-stone-700">
                Signed in as <span className="font-semibold text-stone-900">{who}</span>
              </p>
              <button
                type="button"
                className={`${buttonStyles.secondary} w-full`}
                onClick={() => logout.mutate()}
                disabled={logout.isPending}
              >
                <LogOut aria-hidden="true" className="size-4" />
                Logout
              </button>
            </li>
          </ul>
        </nav>
      ) : null}

      {dialog ? (
        <Suspense fallback={null}>
          <HelpDialogs open={dialog} onClose={() => setDialog(null)} returnFocusRef={menuButtonRef} />
        </Suspense>
      ) : null}
    </header>
  );
}
