import { Home, TreePine } from 'lucide-react';
import { Link } from 'wouter';
import { buttonStyles } from '../components/ui';

export function NotFoundPage() {
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-4 px-4 text-center">
      <span className="flex size-14 items-center justify-center rounded-full bg-green-100 text-green-800">
        <TreePine aria-hidden="true" className="size-7" />
      </span>
      <h1 className="text-3xl font-bold text-green-900">404 Page Not Found</h1>
      <p className="max-w-sm text-stone-700">The page you are looking for does not exist or has moved.</p>
      <Link href="/" className={buttonStyles.primary}>
        <Home aria-hidden="true" className="size-4" />
        Go to Home
      </Link>
    </main>
  );
}
