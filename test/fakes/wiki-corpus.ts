import type { FakeWikiPage } from './fake-wiki';

/** A small, fixed encyclopedia: every test run over it finds the same pages, sources and claims. */
export const PHOTOSYNTHESIS_CORPUS: FakeWikiPage[] = [
  {
    title: 'Photosynthesis',
    paragraphs: [
      'Photosynthesis is the process by which plants convert light energy into chemical energy stored in sugars.',
      'During photosynthesis, plants take in carbon dioxide and water and release oxygen as a by-product.',
      'The light energy absorbed by chlorophyll drives the conversion of water into oxygen, protons and electrons.',
      'Most plants, algae and cyanobacteria perform photosynthesis, which supplies most of the energy for life on Earth.',
      'Photosynthesis does not occur in animals, which must obtain energy by eating plants or other animals.',
    ],
  },
  {
    title: 'Chlorophyll',
    paragraphs: [
      'Chlorophyll is the green pigment that allows plants to absorb light energy for photosynthesis.',
      'Chlorophyll absorbs mostly blue and red light and reflects green light, which gives leaves their colour.',
      'In 1817 the chemists Pelletier and Caventou first isolated chlorophyll from leaves.',
    ],
  },
  {
    title: 'Light-dependent reactions',
    paragraphs: [
      'The light-dependent reactions of photosynthesis convert light energy into ATP and NADPH inside the thylakoid membranes.',
      'These reactions split water molecules and release oxygen into the atmosphere of the Earth.',
      'Researchers think the efficiency of converting light energy in plants rarely exceeds a few percent in the field.',
    ],
  },
  {
    title: 'Calvin cycle',
    paragraphs: [
      'The Calvin cycle uses the chemical energy of ATP and NADPH to fix carbon dioxide into sugars in plants.',
      'The enzyme RuBisCO catalyses the first step of carbon fixation in the Calvin cycle of photosynthesis.',
      'Melvin Calvin received the Nobel Prize in Chemistry in 1961 for his work on carbon fixation in plants.',
    ],
  },
  {
    title: 'Artificial photosynthesis',
    paragraphs: [
      'Artificial photosynthesis is a chemical process that mimics how plants convert light energy and water into fuels.',
      'Critics argue that artificial photosynthesis will not become economically competitive before 2040.',
      'Researchers expect that artificial photosynthesis will convert light energy into hydrogen at scale within decades.',
    ],
  },
  {
    title: 'Photosynthetic efficiency',
    paragraphs: [
      'Photosynthetic efficiency is the fraction of light energy that plants convert into chemical energy during photosynthesis.',
      'Typical crop plants convert about one to two percent of incoming light energy into biomass.',
      'There is ongoing controversy and criticism about how far photosynthesis in plants can be improved by breeding.',
      'Photosynthesis occurs in some animals, such as sea slugs that keep chloroplasts taken from algae.',
    ],
  },
  {
    title: 'Solar energy',
    paragraphs: [
      'Solar panels convert light energy from the Sun directly into electricity with photovoltaic cells.',
      'Plants captured solar energy through photosynthesis long before humans built solar panels.',
    ],
  },
  {
    // Off the question's topic (few shared terms): a distractor that queries about photosynthesis rarely find.
    title: 'Sunlight',
    paragraphs: [
      'Sunlight is the portion of the electromagnetic radiation given off by the Sun that reaches the Earth as light.',
      'The light energy of direct sunlight at the ground is about one kilowatt per square metre at noon.',
      'There is criticism of solar geoengineering because dimming sunlight would reduce the light energy that reaches crops.',
    ],
  },
];
