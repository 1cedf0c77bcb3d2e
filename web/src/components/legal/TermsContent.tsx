import { Link } from 'react-router-dom';
import { ContactEmail, IntroducedList, LegalSections, type LegalSection } from './LegalSections';

const TERMS_SECTIONS: readonly LegalSection[] = [
  {
    title: 'Aceptación de los términos',
    body: (
      <p>
        Al acceder a Tribuna (el «Sitio») o utilizarlo, aceptas estos Términos y Condiciones. Si no estás de acuerdo con ellos, te pedimos que no utilices el
        Sitio. El uso del Sitio después de cualquier cambio en estos términos implica que aceptas la versión vigente.
      </p>
    ),
  },
  {
    title: 'Descripción del servicio',
    body: (
      <>
        <p>
          Tribuna es una plataforma de entretenimiento no oficial, creada por y para fans, donde puedes votar en encuestas sobre los participantes de un reality
          show, consultar los resultados en vivo, acumular puntos, publicar y comentar en un muro social y mantener un perfil público.
        </p>
        <p>
          Tribuna no está afiliada, asociada, autorizada, patrocinada ni respaldada por la televisora, la productora ni ninguna otra empresa relacionada con el
          programa. Los nombres, imágenes y marcas del programa y de sus participantes pertenecen a sus respectivos titulares y se mencionan únicamente con
          fines informativos y de comentario.
        </p>
      </>
    ),
  },
  {
    title: 'Registro de usuarios',
    body: (
      <>
        <p>
          Para votar, publicar, comentar o reaccionar necesitas una cuenta, que se crea al iniciar sesión con Google. Solo se permite una cuenta por persona.
        </p>
        <p>
          Te comprometes a que la información de tu perfil sea veraz y a no suplantar a otras personas. Eres responsable de la seguridad de tu cuenta de Google
          y de toda la actividad que se realice con tu cuenta en el Sitio.
        </p>
      </>
    ),
  },
  {
    title: 'Uso aceptable',
    body: (
      <IntroducedList
        intro="Al usar el Sitio te comprometes a no:"
        items={[
          'Crear o utilizar varias cuentas, ni compartir tu cuenta con otras personas.',
          'Usar bots, scripts u otros medios automatizados para votar, compartir, publicar o reaccionar, ni manipular de cualquier otra forma los resultados o los puntos.',
          'Acosar, amenazar, insultar o discriminar a otras personas, ni publicar contenido ofensivo, violento, sexualmente explícito, engañoso o spam.',
          'Intentar acceder sin autorización a cuentas, sistemas o datos, vulnerar la seguridad del Sitio o interferir con su funcionamiento.',
          'Utilizar el Sitio para cualquier fin ilegal o contrario a estos términos.',
        ]}
        outro="Los votos y puntos obtenidos mediante cualquiera de estas prácticas podrán ser anulados."
      />
    ),
  },
  {
    title: 'Votaciones y puntos',
    body: (
      <>
        <p>
          Las votaciones del Sitio son encuestas de opinión con fines de entretenimiento. No son votaciones oficiales y no afectan de ninguna manera el
          desarrollo ni el resultado del programa.
        </p>
        <p>
          Los puntos son un reconocimiento simbólico dentro del Sitio: no tienen valor monetario, no son canjeables por dinero, premios ni bienes de ningún
          tipo, y no pueden transferirse ni venderse.
        </p>
        <p>
          Cada encuesta indica sus propias reglas (por ejemplo, elegir una opción o repartir puntos, su fecha de cierre o el reinicio diario de puntos). Podemos
          corregir, anular o eliminar votos y puntos en caso de error o de uso indebido, así como modificar el sistema de puntos.
        </p>
      </>
    ),
  },
  {
    title: 'Contenido de los usuarios',
    body: (
      <>
        <p>
          Eres responsable del contenido que publicas (textos, imágenes, comentarios y reacciones) y declaras que tienes derecho a publicarlo. Conservas la
          titularidad de tu contenido y nos concedes una licencia gratuita, no exclusiva y mundial para alojarlo, mostrarlo y reproducirlo dentro del Sitio
          mientras permanezca publicado.
        </p>
        <p>
          Podemos ocultar o eliminar, sin previo aviso, el contenido que incumpla estos términos. Si eliminas tu cuenta, tu perfil se anonimiza y tus
          publicaciones y comentarios pueden permanecer en el Sitio sin tu nombre.
        </p>
      </>
    ),
  },
  {
    title: 'Privacidad',
    body: (
      <p>
        El tratamiento de tus datos personales se describe en nuestra{' '}
        <Link to="/privacidad" className="font-semibold text-fuchsia-700 underline dark:text-fuchsia-400">
          Política de Privacidad
        </Link>
        , que forma parte de estos términos.
      </p>
    ),
  },
  {
    title: 'Limitación de responsabilidad',
    body: (
      <p>
        El Sitio se ofrece «tal cual» y «según disponibilidad», sin garantías de ningún tipo. No garantizamos que funcione sin interrupciones ni errores, ni la
        exactitud de los resultados mostrados. En la medida permitida por la ley, Tribuna y sus administradores no serán responsables de los daños directos o
        indirectos derivados del uso del Sitio o de la imposibilidad de usarlo, del contenido publicado por los usuarios ni de los sitios de terceros a los que
        se enlace.
      </p>
    ),
  },
  {
    title: 'Modificaciones',
    body: (
      <p>
        Podemos modificar estos términos en cualquier momento. La versión vigente se publicará en esta página junto con su fecha de última actualización.
        También podemos modificar, suspender o retirar funciones del Sitio.
      </p>
    ),
  },
  {
    title: 'Terminación',
    body: (
      <p>
        Podemos suspender o cancelar tu acceso al Sitio, sin previo aviso, si incumples estos términos o haces un uso abusivo o fraudulento del servicio. Puedes
        dejar de usar el Sitio y eliminar tu cuenta en cualquier momento desde tu perfil. Las disposiciones que por su naturaleza deban subsistir, como la
        limitación de responsabilidad y la ley aplicable, seguirán vigentes tras la terminación.
      </p>
    ),
  },
  {
    title: 'Ley aplicable',
    body: (
      <p>
        Estos términos se rigen por las leyes de los Estados Unidos Mexicanos. Cualquier controversia relacionada con el Sitio se someterá a los tribunales
        competentes de México, sin perjuicio de los derechos que te otorga la Ley Federal de Protección al Consumidor.
      </p>
    ),
  },
  {
    title: 'Contacto',
    body: (
      <p>
        Si tienes dudas sobre estos términos, escríbenos a <ContactEmail />.
      </p>
    ),
  },
];

/** The terms text alone, embeddable in a dialog (the login page shows it in one). */
export function TermsContent({ headingLevel }: { headingLevel?: 2 | 3 }) {
  return <LegalSections sections={TERMS_SECTIONS} headingLevel={headingLevel} />;
}
