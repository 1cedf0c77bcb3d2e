import { Link } from 'react-router-dom';

/** Footer of the public pages: legal links, copyright and the unofficial-site disclaimer. */
export function Footer() {
  return (
    <footer className="border-t border-slate-200 px-4 py-8 text-center text-sm text-slate-500 dark:border-white/10 dark:text-slate-400">
      <nav aria-label="Enlaces legales" className="flex flex-wrap justify-center gap-x-6 gap-y-2">
        <Link to="/terminos" className="font-medium hover:text-fuchsia-600 hover:underline dark:hover:text-fuchsia-400">
          Términos y Condiciones
        </Link>
        <Link to="/privacidad" className="font-medium hover:text-fuchsia-600 hover:underline dark:hover:text-fuchsia-400">
          Política de Privacidad
        </Link>
      </nav>
      <p className="mx-auto mt-4 max-w-xl text-xs leading-relaxed">
        Tribuna es un sitio de fans no oficial, creado con fines de entretenimiento. No está afiliado, patrocinado ni respaldado por la televisora ni por la
        producción del programa. Las votaciones y los puntos no tienen valor monetario y no influyen en el resultado oficial del programa.
      </p>
      <p className="mt-3 font-semibold">© {new Date().getFullYear()} Tribuna</p>
    </footer>
  );
}
