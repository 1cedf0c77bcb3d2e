import { BulletList, ContactEmail, IntroducedList, LegalSections, type LegalSection } from './LegalSections';

const PRIVACY_SECTIONS: readonly LegalSection[] = [
  {
    title: 'Información que recopilamos',
    body: (
      <IntroducedList
        intro="Recopilamos información cuando creas tu cuenta, cuando votas o participas en el Sitio y cuando nos contactas:"
        items={[
          'Datos de tu perfil: nombre, correo electrónico y foto de perfil que nos proporciona Google al iniciar sesión, además del nombre de usuario, la biografía y las imágenes que tú agregues.',
          'Datos de votación: tus votos, los puntos asignados y obtenidos, y la fecha de cada participación, junto con datos técnicos del navegador que usamos para prevenir fraudes.',
          'Datos de participación: tus publicaciones, comentarios, reacciones y grupos, y las páginas que visitas dentro del Sitio.',
          'La información que nos envíes cuando te comuniques con nosotros.',
        ]}
      />
    ),
  },
  {
    title: 'Cómo usamos tu información',
    body: (
      <BulletList
        items={[
          'Procesar tus votos y llevar el registro de tus puntos.',
          'Gestionar tu cuenta y tu perfil.',
          'Mejorar el servicio a partir de estadísticas de uso.',
          'Enviarte notificaciones relacionadas con tu actividad.',
          'Cumplir nuestras obligaciones legales y prevenir abusos.',
        ]}
      />
    ),
  },
  {
    title: 'Cookies y almacenamiento local',
    body: (
      <IntroducedList
        intro="Usamos cookies y tecnologías similares para:"
        items={[
          'Mantener tu sesión iniciada.',
          'Recordar tus preferencias, como el tema claro u oscuro.',
          'Obtener estadísticas de uso (analíticas), como las páginas visitadas y el tipo de dispositivo.',
          'Mostrarte contenido personalizado.',
        ]}
        outro="Puedes bloquear o borrar las cookies desde tu navegador, aunque algunas funciones, como iniciar sesión, dejarán de funcionar."
      />
    ),
  },
  {
    title: 'Compartir información',
    body: (
      <p>
        No vendemos, alquilamos ni compartimos tus datos personales con terceros. Otros usuarios pueden ver lo que decides hacer público en el Sitio: tu perfil
        público, tus publicaciones y comentarios, y tu nombre y puntos en la lista de votantes de una encuesta.
      </p>
    ),
  },
  {
    title: 'Tus derechos',
    body: (
      <>
        <p>
          Tienes derecho a acceder a tus datos personales, corregirlos, solicitar su eliminación, oponerte a su tratamiento y retirar tu consentimiento en
          cualquier momento.
        </p>
        <p>
          Puedes editar tu perfil o eliminar tu cuenta desde tu perfil. Para ejercer cualquier otro derecho, escríbenos a <ContactEmail />.
        </p>
      </>
    ),
  },
  {
    title: 'Menores de edad',
    body: (
      <p>
        El Sitio no está dirigido a menores de 13 años y no recopilamos conscientemente sus datos. Si crees que un menor de 13 años nos ha proporcionado
        información, contáctanos y la eliminaremos.
      </p>
    ),
  },
  {
    title: 'Cambios a esta política',
    body: <p>Podemos actualizar esta política. Publicaremos la versión vigente en esta página junto con su fecha de última actualización.</p>,
  },
  {
    title: 'Contacto',
    body: (
      <p>
        Si tienes preguntas sobre esta política o sobre tus datos, escríbenos a <ContactEmail />.
      </p>
    ),
  },
];

/** The privacy policy text alone, embeddable in a dialog (the login page shows it in one). */
export function PrivacyContent({ headingLevel }: { headingLevel?: 2 | 3 }) {
  return <LegalSections sections={PRIVACY_SECTIONS} headingLevel={headingLevel} />;
}
