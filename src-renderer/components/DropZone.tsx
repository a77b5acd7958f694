import { useEffect, useState } from 'react';
import { useImport } from '../state/imports.ts';
import { useApp } from '../store.ts';

/** Dropping a file anywhere on the window starts its import (on the Datasets screen). */
export function DropZone() {
  const [over, setOver] = useState(false);
  const begin = useImport((s) => s.begin);
  const setScreen = useApp((s) => s.setScreen);
  useEffect(() => {
    const hasFiles = (e: DragEvent) => e.dataTransfer?.types.includes('Files') ?? false;
    const onOver = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      setOver(true);
    };
    const onLeave = (e: DragEvent) => {
      if (e.relatedTarget === null) setOver(false);
    };
    const onDrop = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      setOver(false);
      const file = e.dataTransfer?.files[0];
      if (file) {
        setScreen('datasets');
        void begin(file);
      }
    };
    window.addEventListener('dragover', onOver);
    window.addEventListener('dragleave', onLeave);
    window.addEventListener('drop', onDrop);
    return () => {
      window.removeEventListener('dragover', onOver);
      window.removeEventListener('dragleave', onLeave);
      window.removeEventListener('drop', onDrop);
    };
  }, [begin, setScreen]);
  return over ? (
    <div className="drop-overlay" data-testid="drop-overlay">
      Drop to import
    </div>
  ) : null;
}
