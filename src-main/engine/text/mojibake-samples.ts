/**
 * Clean text in many languages and scripts, written for the encoding tests
 * and bench: every line is correct Unicode, and several look like mojibake to
 * a naive detector (Cyrillic capitals, Scandinavian Å/Ø, Sami names,
 * Portuguese capitals, typography after capitals). The mojibake rule must
 * leave all of them alone, and must repair each of them once mis-decoded.
 */
export const CLEAN_MULTILINGUAL: readonly string[] = [
  // Latin script, Western Europe
  'Le café du coin sert un crème brûlée délicieux à deux pas de l’église.',
  'Voilà déjà la troisième fois qu’il arrive en retard : « C’est la grève ! »',
  'Die Straße nach Köln ist wegen Bauarbeiten gesperrt, schöne Grüße aus München.',
  '¿Dónde está la estación? El niño comió paella y jamón en Cádiz.',
  'A criança comeu maçã e pão; às vezes, ela vai àquela praça em São Paulo.',
  'AMANHÃ A IRMÃ VAI A SÃO PAULO E NÃO VOLTA ANTES DAS SEIS.',
  'Il perché della città è già noto: più di trenta caffè al giorno.',
  'Een reünie in Curaçao was geïnspireerd door de ruïnes.',
  // Nordic and Sami
  'ÅRHUS, ÅLBORG og ØRESUND er steder i Danmark og Sverige.',
  'Øresundsbroen forbinder København og Malmö; Ålesund ligger i Norge.',
  'HÅØYA ER EN ØY I OSLOFJORDEN, OG BLÅBÆR VOKSER DER.',
  'Mange bor i Tromsø, Bodø og Kristiansund; ÆRØ er en dansk ø.',
  'Áltá, Guovdageaidnu ja Kárášjohka leat Sámis; Ánde ja Čohkkiras orrot doppe.',
  'ČÁHCI, ŠÁVNNJIS JA ŊUORAT: SÁMEDIGGI ČOAHKKANA GUOVDAGEAIDNUS.',
  'Þórður og Guðrún fóru til Reykjavíkur í gær með ömmu sinni.',
  'Hyvää päivää! Äiti ja isä asuvat Jyväskylässä, SELKÄ EDELLÄ.',
  // Central and Eastern Europe
  'Čeština je těžká, ale příliš žluťoučký kůň úpěl ďábelské ódy.',
  'Zażółć gęślą jaźń; Łódź i Kraków leżą w Polsce.',
  'Árvíztűrő tükörfúrógép: öt szép szűz lány őrült írót nyúz.',
  'Știința și țara; NICIODATĂ nu vom uita ÎNCĂ o dată.',
  'Lietuvių kalba: ąžuolas, ėjo, įdomu, šiaurė, ūkis, žąsis.',
  'Latviešu valoda: ķēniņš, ģimene, ļoti, ņemt, šodien, žurnāls.',
  'Türkçe: çalışkan öğrenci, ağaç, göğüs, şişe ve ılık su.',
  'Hrvatski: čaša, ćuk, đak, šuma i žaba; Dubrovnik je lijep.',
  // Vietnamese
  'Tiếng Việt có nhiều dấu: người, được, những, thì, của.',
  // Greek
  'Η Ελλάδα έχει πολλά νησιά· ΕΛΛΗΝΙΚΑ ΓΡΑΜΜΑΤΑ ΜΕ ΤΟΝΟΥΣ.',
  // Cyrillic, with capitals
  'Привет, как дела? Москва — столица России.',
  'ПРИВЕТ, МИР! ВЫСШАЯ ШКОЛА ЭКОНОМИКИ, ОБЪЕДИНЁННЫЕ НАЦИИ.',
  'ВІКІ — це українська енциклопедія; ЗАСІДАННЯ ВЕРХОВНОЇ РАДИ.',
  'СЄРІЯ, ПЕРІОД, ЄВРОПА, ЇЖАК, ҐАНОК: УКРАЇНСЬКІ СЛОВА.',
  'Беларуская мова: ЎСХОД, Ўладзімір, дзьмуўся.',
  'Српски језик: Ђорђе, Љубљана, Његош, Ћуприја, Џеп.',
  'Гёте и Гёльдерлин писали по-немецки.',
  'Български език: щастие, ъгъл, юг, ябълка.',
  // Other scripts
  'עברית היא שפה שמית; שלום לכולם.',
  'اللغة العربية جميلة، مرحبا بالعالم.',
  'زبان فارسی: سلام، حال شما چطور است؟',
  'नमस्ते, आप कैसे हैं? हिन्दी भाषा बहुत सुंदर है।',
  'வணக்கம், எப்படி இருக்கிறீர்கள்? தமிழ் மொழி.',
  'বাংলা ভাষা খুব সুন্দর।',
  'ภาษาไทยมีวรรณยุกต์ สวัสดีครับ',
  '日本語のテキストと漢字、ひらがな、カタカナ。',
  '简体中文和繁體中文都是中文。',
  '한국어 문장입니다. 안녕하세요!',
  'ქართული ენა ლამაზია.',
  // Symbols and typography
  'Price: 5 € or £4.20, temperature 21 °C ± 0.5, area 12 m², ½ off.',
  'NESTLÉ® and CAFÉ™ — “quoted” text… ‘single’ «guillemets» MARQUÉ…',
  'Emoji 😀 👍🏽 ❤️ ✔ ⚠ and math ≤ ≥ ≠ √ ∑ π ∞.',
  'Box drawing: ┌──┐ │ok│ └──┘ ╔═╗ ║x║ ╚═╝ ├─┤ ░▒▓',
  'a radius of 10 Å— and AHÅ™, the new sofa; !YO SÉ¡',
  'TRANSFORMATORIŲ™ and NICIODATĂ™ are words before a trademark sign.',
];
