import { describe, expect, it } from 'vitest';
import { emailRule, phoneRule, profanityRule, secretRule } from './safety.ts';

describe('secret', () => {
  it('reports keys, which look generated', () => {
    for (const key of [
      'sk-proj-a1B2c3D4e5F6g7H8i9J0kLmNoPqRsT',
      'sk-abcdefghij0123456789ABCDEFGHIJabcdefghij012345',
      'sk-ant-api03-Xy9kQw2LmN4pR7sT1uV3wZ5aB8cD0eF',
      'sk-test-0123456789abcdef0123',
      'xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx',
      'svc_Zk3mQ9pL2xR8vT1nB6cW4yH7jD0sF5gA_e-KuIoPqZ',
      'AKIAIOSFODNN7EXAMPLE',
    ]) {
      expect(secretRule.detect(`the key is ${key} here`), key).not.toBeNull();
      expect(secretRule.fix?.(`key: ${key}`)).toBe('key: [SECRET]');
    }
  });

  it('leaves hyphenated words that merely start like a key alone', () => {
    for (const text of [
      'Wrap it as an sk-learn-compatible-estimator so pipelines accept it.',
      'a task-ant-colony-optimisation-variant',
      'the sk-learn-0-24-compatible wrapper',
      'xoxb-placeholder-token-goes-here',
    ]) {
      expect(secretRule.detect(text), text).toBeNull();
      expect(secretRule.fix?.(text)).toBe(text);
    }
  });
});

describe('pii_email', () => {
  it('ignores placeholder domains: RFC 2606 names and the generic ones of templates', () => {
    for (const address of [
      'john@example.org',
      'a@mail.example.com',
      'x@example.co.uk',
      'me@example.edu',
      'user@email.com',
      'name@yourdomain.com',
      'jane@domain.com',
      'bob@yourcompany.com',
      'dev@localhost',
      'qa@service.test',
    ]) {
      expect(emailRule.detect(`Write to ${address} today.`), address).toBeNull();
    }
  });

  it('reports real-looking addresses', () => {
    for (const address of ['maria.lopez@gmail.com', 'me@examples.com', 'j.doe@acme-corp.co.uk']) {
      expect(emailRule.detect(`Write to ${address} today.`), address).not.toBeNull();
    }
  });
});

describe('pii_phone', () => {
  it('does not report the toll-free lines of organisations (hotlines in chat replies)', () => {
    for (const text of [
      'For poison control, call 1-800-222-1222 right away.',
      'You can reach the lifeline at 1-800-273-8255, day or night.',
      'Customer service: +1 (888) 555-0100 is toll-free.',
    ]) {
      expect(phoneRule.detect(text), text).toBeNull();
    }
  });

  it('still reports the numbers a person answers', () => {
    for (const text of ['Call me at (415) 555-2671 tonight.', 'My cell is +44 7911 123456.']) {
      expect(phoneRule.detect(text), text).not.toBeNull();
    }
  });
});

describe('profanity in context', () => {
  it('does not read clinical, anatomical or ordinary senses as profanity', () => {
    for (const text of [
      'Upper motor neuron lesions cause spastic paralysis of the limbs.',
      'The muscles become spastic after the injury.',
      'The cervix, the anal canal and the rectum were examined.',
      'Erection of the penis is caused by blood filling the erectile tissue.',
      'Semen carries sperm; orgasm and ejaculation are reflexes.',
      "Dick's ligament was described in the breast tissue.",
      'She graduated magna cum laude in 1998.',
      'The blue tit and the great tit visited the feeder; it was tit for tat.',
      'Pussy willow blooms in early spring.',
      'Salt can retard the growth of bacteria; the fabric is flame retardant.',
      'The defendant was charged with rape.',
    ]) {
      expect(profanityRule.detect(text), text).toBeNull();
    }
  });

  it('does not read the vocabulary of law, biology, history or geology as profanity', () => {
    for (const text of [
      'Incest is prohibited by law in every state; offspring of close relatives are more likely to inherit recessive disorders.',
      'The Negro Leagues were professional baseball leagues in the United States.',
      'In his letter of 1963 he wrote of "the Negro", as the language of that era did.',
      'Wildlife biologists collect wolf scat to study its diet.',
      'A dyke is a sheet of igneous rock that cuts across older rock layers.',
      'The Dutch built dykes and polders to hold back floods.',
      'Roman historians describe the Bacchanalia as an orgy of the cult of Dionysus.',
      'Masturbation is a normal part of adolescent development, the physician explained.',
    ]) {
      expect(profanityRule.detect(text), text).toBeNull();
    }
  });

  it('reads neither a word of another language nor the symbols of a formula as profanity', () => {
    for (const text of [
      // "Königs" is one German word, not "k" and "nigs"
      'Die Stufenpyramide des altägyptischen Königs Djoser aus der 3. Dynastie.',
      // MATH solutions: "pi$$" and "$3xy" are no leetspeak, [ABO] is a triangle
      'The area is $$\\pi\\cdot4^2-\\pi\\cdot2^2=16\\pi-4\\pi=12\\pi$$ in total.',
      'Equality occurs when $x + y = 1$ and $3xy = \\frac{1}{2}.$',
      'Then \\[[ABC] = [ABO] + [BCO] - [ACO].\\]',
    ]) {
      expect(profanityRule.detect(text), text).toBeNull();
    }
  });

  it('reads an ordinary word of the language a text is written in as no profanity', () => {
    // Multilingual sets (Aya, xP3, OASST's other languages, translated Alpacas).
    for (const text of [
      'El perro negro corre por el parque y el gato negro duerme en la casa.',
      'O gato negro dorme no sofá da casa.',
      'Filmen är slut nu och vi går hem.',
      'Matematikk er et viktig fag på skolen, og jeg liker det.',
      'Tak for i dag, nu er det slut med det.',
    ]) {
      expect(profanityRule.detect(text), text).toBeNull();
    }
    // The same words in English text still are reported, as is English slang in any text.
    for (const text of [
      'He called his neighbour a negro and a fag in the street.',
      'She was called a slut by the other girls at the party.',
      'El perro es muy bonito, but what the fuck is this?',
    ]) {
      expect(profanityRule.detect(text), text).not.toBeNull();
    }
  });

  it('reads neither a part of a hyphenated name nor a word named in quotes as profanity', () => {
    for (const text of [
      'Der Shite-Thaung-Tempel ist ein buddhistischer Tempel in Mrauk U.',
      'Der Dortmund-Ems-Kanal ist eine Bundeswasserstraße.',
      'What is the origin of the word "shit"?',
      "The term 'fuck' is attested from the 15th century.",
      'The blue-footed booby nests on the ground; he won the booby prize.',
    ]) {
      expect(profanityRule.detect(text), text).toBeNull();
    }
    for (const text of [
      'Fuck-Off, he said.',
      'He said "shit" and left.',
      'Why should anyone give a shit about it?',
    ]) {
      expect(profanityRule.detect(text), text).not.toBeNull();
    }
  });

  it('still reports slurs and sexual words in a text of any field', () => {
    for (const text of [
      'In the 1920s slurs like nigger were printed in newspapers, historians note.',
      'The defendant, charged under the incest statute, called the officer a cunt.',
      'Wildlife biologists collect scat, and fuck them all.',
      'Is $x$ a slut?',
      'Piss off, $x + y = 2$ is wrong.',
    ]) {
      expect(profanityRule.detect(text), text).not.toBeNull();
    }
  });

  it('still reports profanity, also beside a clinical word', () => {
    for (const text of [
      'What the fuck is this?',
      'This is shit.',
      'You spastic idiot.',
      'The muscles are spastic, you twat.',
    ]) {
      expect(profanityRule.detect(text), text).not.toBeNull();
    }
  });
});
