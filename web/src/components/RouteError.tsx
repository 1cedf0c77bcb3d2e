import { Link, useRouteError } from 'react-router-dom';
import { AlertIcon } from './icons';

/** Shown when a screen throws while rendering, instead of a blank page. */
export function RouteError() {
  const error = useRouteError();
  console.error(error);
  return (
    <div role="alert" className="mx-auto flex min-h-dvh max-w-md flex-col items-center justify-center gap-4 px-4 text-center">
      <AlertIcon className="size-10 text-rose-500" />
      <h1 className="text-2xl font-extrabold">Algo salió mal</h1>
      <p className="text-slate-600 dark:text-slate-400">Ocurrió un error inesperado. Intenta de nuevo en unos momentos.</p>
      <Link to="/" reloadDocument className="rounded-full bg-fuchsia-600 px-5 py-2 font-bold text-white hover:bg-fuchsia-700">
        Volver al inicio
      </Link>
    </div>
  );
}
