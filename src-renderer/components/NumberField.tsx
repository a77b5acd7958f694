import { useState } from 'react';

/**
 * A number input that never turns an empty or half-typed field into 0: it
 * keeps the text as typed and reports a number only when the text is one
 * within the bounds, else null (the form then refuses to save).
 */
export function NumberField({
  label,
  value,
  onChange,
  min,
  max,
  step,
  integer = false,
  className,
  id,
  disabled = false,
}: {
  label: string;
  value: number;
  onChange: (value: number | null) => void;
  min: number;
  max?: number;
  step?: number;
  integer?: boolean;
  className?: string;
  id?: string;
  disabled?: boolean;
}) {
  const [text, setText] = useState(String(value));
  const parse = (raw: string): number | null => {
    if (raw.trim() === '') return null;
    const n = Number(raw);
    if (!Number.isFinite(n) || n < min || (max !== undefined && n > max)) return null;
    if (integer && !Number.isInteger(n)) return null;
    return n;
  };
  const invalid = parse(text) === null;
  return (
    <input
      id={id}
      aria-label={label}
      aria-invalid={invalid}
      disabled={disabled}
      className={`${className ?? ''}${invalid ? ' invalid' : ''}`}
      type="number"
      min={min}
      max={max}
      step={step ?? (integer ? 1 : 'any')}
      value={text}
      title={
        invalid
          ? `${integer ? 'a whole number' : 'a number'} from ${min}${max !== undefined ? ` to ${max}` : ''}`
          : undefined
      }
      onChange={(e) => {
        setText(e.target.value);
        onChange(parse(e.target.value));
      }}
    />
  );
}
