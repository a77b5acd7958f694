import { useEffect, useState } from 'react';
import { useImport } from '../state/imports.ts';
import { useApp } from '../store.ts';

/**
 * Dropping files anywhere on the window starts their import (on the Datasets
 * screen), one after another.
 */
export function DropZone() {
  const [over, setOver] = useState(false);
  const enqueue = useImport((s) => s.enqueue);
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
      const files = [...(e.dataTransfer?.files ?? [])];
      if (files.length > 0) {
        setScreen('datasets');
        enqueue(files);
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
  }, [enqueue, setScreen]);
  return over ? (
    <div className="drop-overlay" data-testid="drop-overlay">
      Drop to import
    </div>
  ) : null;
}
