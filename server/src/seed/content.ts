// The demo community: fictional show, contestants and fans (any resemblance is coincidental).
import type { SceneKind } from './images.ts';
import type { Role } from '@tribuna/contracts/roles';
import type { GROUP_ROLES } from '@tribuna/drizzle/schema/wall';

export const DEMO_ADMIN_USERNAME = 'admin';
export const DEMO_MODERATOR_USERNAME = 'mod_lucia';

export const REALITY_NAME = 'La Casa de las Estrellas';

export interface DemoContestant {
  slug: string;
  fullName: string;
  eliminated?: { daysAgo: number };
}

export const CONTESTANTS: DemoContestant[] = [
  { slug: 'ximena-valdes', fullName: 'Ximena Valdés' },
  { slug: 'rodrigo-castaneda', fullName: 'Rodrigo Castañeda' },
  { slug: 'paola-montiel', fullName: 'Paola Montiel' },
  { slug: 'emiliano-rosas', fullName: 'Emiliano Rosas' },
  { slug: 'daniela-quintero', fullName: 'Daniela Quintero' },
  { slug: 'joaquin-arriaga', fullName: 'Joaquín Arriaga' },
  { slug: 'renata-solis', fullName: 'Renata Solís' },
  { slug: 'mateo-ibarra', fullName: 'Mateo Ibarra' },
  { slug: 'valentina-ochoa', fullName: 'Valentina Ochoa' },
  { slug: 'camila-ferrer', fullName: 'Camila Ferrer', eliminated: { daysAgo: 10 } },
];

export interface DemoUser {
  username: string;
  displayName: string;
  bio: string;
  role: Role;
  joinedDaysAgo: number;
  banner?: string;
}

export const USERS: DemoUser[] = [
  {
    username: DEMO_ADMIN_USERNAME,
    displayName: 'Admin Tribuna',
    bio: 'Cuenta de administración de Tribuna. Reporta cualquier problema y cuida a la comunidad. 💜',
    role: 'admin',
    joinedDaysAgo: 45,
    banner: 'Tribuna',
  },
  {
    username: DEMO_MODERATOR_USERNAME,
    displayName: 'Lucía Moderadora',
    bio: 'Moderadora del muro. Aquí se opina con respeto. 🙌',
    role: 'moderator',
    joinedDaysAgo: 44,
  },
  {
    username: 'vale_fan',
    displayName: 'Valeria Ríos',
    bio: 'Fan número uno de Ximena ✨ Veo todas las galas en vivo desde Puebla.',
    role: 'user',
    joinedDaysAgo: 38,
    banner: 'Team Ximena',
  },
  {
    username: 'dieguito_mx',
    displayName: 'Diego Hernández',
    bio: 'Comento las galas con palomitas en mano 🍿',
    role: 'user',
    joinedDaysAgo: 36,
  },
  {
    username: 'sofi_estrellas',
    displayName: 'Sofía Campos',
    bio: 'Hago teorías de todo lo que pasa en la casa. Nadie me cree hasta que pasa. 🔮',
    role: 'user',
    joinedDaysAgo: 33,
    banner: 'Teorías de la Casa',
  },
  {
    username: 'luis_aguilar',
    displayName: 'Luis Aguilar',
    bio: 'Organizo las reuniones de fans en CDMX. ¡Únete!',
    role: 'user',
    joinedDaysAgo: 30,
  },
  {
    username: 'mariana_tv',
    displayName: 'Mariana Pineda',
    bio: 'Reality shows, café y memes.',
    role: 'user',
    joinedDaysAgo: 27,
  },
  {
    username: 'tono_reality',
    displayName: 'Antonio Salazar',
    bio: 'Desde la primera gala supe quién iba a ganar. 😎',
    role: 'user',
    joinedDaysAgo: 21,
  },
  {
    username: 'fer_gtz',
    displayName: 'Fernanda Gutiérrez',
    bio: 'Team Camila por siempre 💔',
    role: 'user',
    joinedDaysAgo: 18,
  },
  {
    username: 'carlitos_mty',
    displayName: 'Carlos Treviño',
    bio: 'Regio y fan de las estadísticas de votación 📊',
    role: 'user',
    joinedDaysAgo: 12,
    banner: 'Arriba el norte',
  },
  {
    username: 'ale_cdmx',
    displayName: 'Alejandra Mora',
    bio: 'Aquí solo para ver el drama 🍵',
    role: 'user',
    joinedDaysAgo: 6,
  },
  {
    username: 'pepe_gdl',
    displayName: 'José Ramírez',
    bio: 'Nuevo por aquí. ¡Saludos desde Guadalajara!',
    role: 'user',
    joinedDaysAgo: 2,
  },
];

export interface DemoImage {
  kind: SceneKind;
  caption: string;
  /** Size of the drawn picture (the pipeline keeps it within 2048 px); varied aspect ratios. */
  width: number;
  height: number;
  /** Alternative text (some pictures have none, as some uploads do). */
  alt?: string;
}

export interface DemoComment {
  by: string;
  text: string;
  hoursAfterPost: number;
  replies?: { by: string; text: string; hoursAfterPost: number }[];
}

export interface DemoPost {
  by: string;
  content: string;
  hoursAgo: number;
  pinned?: boolean;
  group?: string;
  images?: DemoImage[];
  comments?: DemoComment[];
}

export interface DemoGroup {
  key: string;
  name: string;
  description: string;
  privacy: 'public' | 'private';
  /** First member is the group's admin. */
  members: { username: string; role: (typeof GROUP_ROLES)[number] }[];
}

export const GROUPS: DemoGroup[] = [
  {
    key: 'team-ximena',
    name: 'Team Ximena',
    description: 'El club de fans de Ximena Valdés: estrategias de votación, fotos y mucho apoyo. ✨',
    privacy: 'public',
    members: [
      { username: 'vale_fan', role: 'admin' },
      { username: 'mariana_tv', role: 'moderator' },
      { username: 'dieguito_mx', role: 'member' },
      { username: 'ale_cdmx', role: 'member' },
      { username: 'pepe_gdl', role: 'member' },
    ],
  },
  {
    key: 'teorias',
    name: 'Teorías de la Casa',
    description: '¿Quién tiene alianza con quién? Aquí analizamos cada gesto de la casa. 🔍',
    privacy: 'public',
    members: [
      { username: 'sofi_estrellas', role: 'admin' },
      { username: 'tono_reality', role: 'member' },
      { username: 'carlitos_mty', role: 'member' },
      { username: 'fer_gtz', role: 'member' },
      { username: 'luis_aguilar', role: 'member' },
      { username: 'vale_fan', role: 'member' },
    ],
  },
  {
    key: 'moderacion',
    name: 'Equipo de Moderación',
    description: 'Coordinación del equipo que cuida el muro de Tribuna.',
    privacy: 'private',
    members: [
      { username: DEMO_ADMIN_USERNAME, role: 'admin' },
      { username: DEMO_MODERATOR_USERNAME, role: 'moderator' },
    ],
  },
];

export const POSTS: DemoPost[] = [
  {
    by: DEMO_ADMIN_USERNAME,
    pinned: true,
    hoursAgo: 24 * 20,
    content:
      '¡Bienvenidos a Tribuna! 🎉 Este es el muro de la comunidad de La Casa de las Estrellas. Vota cada semana, comparte las encuestas para ganar puntos extra y opina con respeto. ¡Que gane tu favorito!',
    images: [
      { kind: 'stage', caption: '¡Bienvenidos a Tribuna!', width: 1600, height: 900, alt: 'Escenario iluminado con el mensaje «¡Bienvenidos a Tribuna!»' },
    ],
    comments: [
      { by: 'vale_fan', text: '¡Por fin un lugar para hablar de la casa! 🙌', hoursAfterPost: 2 },
      {
        by: 'dieguito_mx',
        text: '¿Los puntos se pueden cambiar por algo?',
        hoursAfterPost: 5,
        replies: [{ by: DEMO_ADMIN_USERNAME, text: 'Por ahora son para el ranking de la comunidad, sin valor monetario. 😉', hoursAfterPost: 6 }],
      },
    ],
  },
  {
    by: 'vale_fan',
    hoursAgo: 30,
    content: 'No puedo creer la nominación de esta semana 😱 Ximena no merecía estar en la placa. ¡Todos a votar por ella en la encuesta principal!',
    images: [
      { kind: 'stage', caption: '#SalvemosAXimena', width: 900, height: 1200, alt: 'Cartel vertical con el lema #SalvemosAXimena' },
      { kind: 'party', caption: 'Team Ximena', width: 1080, height: 1080 },
    ],
    comments: [
      {
        by: 'mariana_tv',
        text: 'Ya voté 💜 y compartí la encuesta en WhatsApp.',
        hoursAfterPost: 1,
        replies: [
          { by: 'vale_fan', text: '¡Gracias! Cada voto cuenta 🙏', hoursAfterPost: 2 },
          { by: 'ale_cdmx', text: 'Yo también, vamos Ximena ✨', hoursAfterPost: 4 },
        ],
      },
      { by: 'tono_reality', text: 'Mmm, yo creo que Rodrigo tiene más fans esta vez.', hoursAfterPost: 3 },
      { by: 'pepe_gdl', text: '¿Cuándo cierra la votación?', hoursAfterPost: 20 },
    ],
  },
  {
    by: 'dieguito_mx',
    hoursAgo: 52,
    content: '¿Alguien más vio la fiesta de anoche? La coreografía de Emiliano y Paola estuvo increíble 💃🕺',
    images: [{ kind: 'party', caption: 'La fiesta del sábado', width: 2400, height: 1000, alt: 'Panorámica de la fiesta del sábado con confeti y globos' }],
    comments: [
      { by: 'sofi_estrellas', text: 'Esos dos ya tienen alianza, se los digo 👀', hoursAfterPost: 1 },
      { by: 'carlitos_mty', text: '¡Lo mejor de la semana!', hoursAfterPost: 6 },
    ],
  },
  {
    by: 'sofi_estrellas',
    hoursAgo: 75,
    content: 'Mi top 3 de la temporada hasta ahora: 1) Renata 2) Mateo 3) Daniela. ¿Cuál es el suyo? 👇',
    comments: [
      { by: 'luis_aguilar', text: 'Ximena, Joaquín y Renata. Sin discusión.', hoursAfterPost: 2 },
      {
        by: 'fer_gtz',
        text: 'Camila debió seguir 😢',
        hoursAfterPost: 5,
        replies: [{ by: 'sofi_estrellas', text: 'Fue la eliminación más injusta de la temporada.', hoursAfterPost: 6 }],
      },
      { by: 'dieguito_mx', text: 'Paola, Emiliano y Valentina 🔥', hoursAfterPost: 9 },
      { by: 'ale_cdmx', text: 'Renata arriba siempre.', hoursAfterPost: 30 },
    ],
  },
  {
    by: 'mariana_tv',
    hoursAgo: 100,
    content: 'Se me hace que la prueba de cocina estuvo arreglada 🤔 ¿Ustedes qué opinan?',
    images: [{ kind: 'kitchen', caption: 'El reto de cocina', width: 1200, height: 900, alt: 'Plato humeante del reto de cocina' }],
    comments: [
      { by: 'tono_reality', text: 'Para nada, Mateo cocinó mejor que todos.', hoursAfterPost: 3 },
      { by: 'vale_fan', text: 'Un poquito sospechoso sí estuvo jaja', hoursAfterPost: 4 },
    ],
  },
  {
    by: 'luis_aguilar',
    hoursAgo: 120,
    content: 'Fotos de nuestra reunión de fans del sábado 📸 ¡Gracias a todos los que vinieron! La próxima la hacemos en la final.',
    images: [
      { kind: 'party', caption: 'Reunión de fans', width: 1200, height: 900, alt: 'Fans celebrando con globos en la reunión del sábado' },
      { kind: 'city', caption: 'Camino a la reunión', width: 900, height: 1350, alt: 'Edificios de la ciudad de noche, camino a la reunión' },
      { kind: 'beach', caption: 'Atardecer con el club', width: 1600, height: 1000, alt: 'Atardecer en la playa con una palmera' },
      { kind: 'stage', caption: 'Viendo la gala juntos', width: 1080, height: 1080 },
      { kind: 'party', caption: '¡Hasta la próxima!', width: 1000, height: 1250, alt: 'Confeti de despedida al final de la reunión' },
      { kind: 'kitchen', caption: 'La cena del club', width: 1200, height: 800, alt: 'La cena que compartimos después de la gala' },
    ],
    comments: [
      { by: 'carlitos_mty', text: '¡Qué envidia! Para la próxima voy desde Monterrey.', hoursAfterPost: 2 },
      {
        by: 'mariana_tv',
        text: 'Qué bonitas fotos 😍',
        hoursAfterPost: 8,
        replies: [{ by: 'luis_aguilar', text: '¡Gracias! Te esperamos en la siguiente.', hoursAfterPost: 10 }],
      },
    ],
  },
  {
    by: 'fer_gtz',
    hoursAgo: 200,
    content: 'Camila se fue muy pronto 😢 Era de mis favoritas. ¡Te vamos a extrañar!',
    comments: [{ by: 'sofi_estrellas', text: 'Todavía puede regresar en el repechaje 🤞', hoursAfterPost: 1 }],
  },
  {
    by: 'carlitos_mty',
    hoursAgo: 8,
    content: 'Dato curioso: esta semana ya llevamos más votos que en toda la semana pasada 🔥 ¡A seguir votando y compartiendo!',
    images: [{ kind: 'city', caption: 'Récord de votos', width: 800, height: 1400, alt: 'Ciudad iluminada con el texto «Récord de votos»' }],
    comments: [],
  },
  {
    by: 'vale_fan',
    group: 'team-ximena',
    hoursAgo: 12,
    content: 'Plan para esta semana: votar temprano, compartir la encuesta una vez al día y animar a todos en el muro. 💪',
    comments: [{ by: 'dieguito_mx', text: '¡Cuenten conmigo!', hoursAfterPost: 1 }],
  },
];
