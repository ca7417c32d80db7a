import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { BrowserRouter, Navigate, Route, Routes, useLocation } from 'react-router';
import { LoginPage } from '../components/Login/LoginPage';
import { Shell } from '../components/Shell/Shell';
import { Loading } from '../components/common/Loading';
import { useSession } from './session/session';

// Each page loads on first visit: the sign-in form comes with the first, small, chunk.
const ExplorePage = lazy(() => import('../components/Explore/ExplorePage'));
const FileIngestPage = lazy(() => import('../components/FileIngest/FileIngestPage'));
const AdministrationPage = lazy(() => import('../components/Administration/AdministrationPage'));

const queryClient = new QueryClient({
  defaultOptions: { queries: { refetchOnWindowFocus: false, retry: false, staleTime: 30_000 } },
});

/** Signed out, every page is the sign-in form (the address is kept, so a shared link opens after signing in). */
function Gate() {
  const session = useSession();
  const location = useLocation();
  if (session.isPending) return <Loading label="Loading" />;
  if (!session.data) return <LoginPage />;
  if (location.pathname === '/login') return <Navigate to="/explore" replace />;
  return (
    <Shell user={session.data}>
      <Suspense fallback={<Loading label="Loading" />}>
        <Routes>
          <Route path="/" element={<Navigate to="/explore" replace />} />
          <Route path="/explore" element={<ExplorePage />} />
          <Route path="/ingest" element={<FileIngestPage />} />
          <Route path="/administration/*" element={<AdministrationPage user={session.data} />} />
          <Route path="*" element={<Navigate to="/explore" replace />} />
        </Routes>
      </Suspense>
    </Shell>
  );
}

export function Root() {
  return (
    <QueryClientProvider client={queryClient}>
      <BrowserRouter basename="/ui">
        <Gate />
      </BrowserRouter>
    </QueryClientProvider>
  );
}
