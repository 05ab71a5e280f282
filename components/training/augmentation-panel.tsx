"use client";

import { useId, useMemo } from "react";
import { inputClass } from "@/components/ui/field";
import {
  type Augmentation,
  DEFAULT_IMAGE_RESIZE,
  describeAugmentation,
  IMAGE_RESIZE_MODES,
  type ImageResizeMode,
} from "@/lib/ml";
import { previewVariants } from "@/lib/training-ui/augmentation-preview";

export const NO_AUGMENTATION: Augmentation = {
  horizontal_flip: false,
  crop_padding: 0,
  rotation_degrees: 0,
  translate: 0,
  color_jitter: 0,
};

/** A sensible start for pictures: flip off (digits and text must not be mirrored), small shifts. */
export const SUGGESTED_AUGMENTATION: Augmentation = {
  horizontal_flip: false,
  crop_padding: 2,
  rotation_degrees: 10,
  translate: 0,
  color_jitter: 0,
};

const RESIZE_TEXT: Record<ImageResizeMode, string> = {
  stretch: "Stretch: the whole picture, aspect ratio not kept",
  crop: "Crop: fill the Input, cut the centre",
  pad: "Pad: fit inside, black borders",
};

function Slider({
  label,
  value,
  min,
  max,
  step,
  format,
  onChange,
  disabled,
  hint,
}: {
  label: string;
  value: number;
  min: number;
  max: number;
  step: number;
  format: (v: number) => string;
  onChange: (v: number) => void;
  disabled?: boolean;
  hint?: string;
}) {
  const id = useId();
  return (
    <div className="space-y-1">
      <div className="flex items-baseline justify-between gap-2">
        <label htmlFor={id} className="text-sm font-medium">
          {label}
        </label>
        <span className="font-mono text-xs tabular-nums text-muted">
          {value === 0 ? "off" : format(value)}
        </span>
      </div>
      <input
        id={id}
        type="range"
        min={min}
        max={max}
        step={step}
        value={value}
        disabled={disabled}
        onChange={(e) => onChange(Number(e.target.value))}
        className="w-full accent-[var(--accent)]"
        aria-describedby={hint ? `${id}-hint` : undefined}
      />
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-muted">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

/**
 * The Train dialog's image settings: how pictures reach the Input's size, and the random changes made
 * to training pictures (never to validation, test or serving), with a strip of one sample picture as
 * training might see it.
 */
export function AugmentationPanel({
  value,
  onChange,
  resize,
  onResize,
  rgb,
  sample,
}: {
  value: Augmentation;
  onChange: (next: Augmentation) => void;
  resize: ImageResizeMode;
  onResize: (next: ImageResizeMode) => void;
  /** Colour jitter applies to RGB inputs only. */
  rgb: boolean;
  /** A thumbnail of one of the dataset's pictures (a data: URL), for the preview strip. */
  sample: string | null;
}) {
  const resizeId = useId();
  const set = (patch: Partial<Augmentation>) => onChange({ ...value, ...patch });
  const variants = useMemo(() => previewVariants(value, rgb, 6), [value, rgb]);
  const summary = describeAugmentation(value);
  return (
    <fieldset className="space-y-3 rounded-lg border border-border p-4" data-testid="augmentation-panel">
      <legend className="px-1 text-sm font-medium">Pictures</legend>
      <div className="space-y-1">
        <label htmlFor={resizeId} className="block text-sm font-medium">
          Resize to the Input
        </label>
        <select
          id={resizeId}
          className={inputClass}
          value={resize}
          onChange={(e) => onResize(e.target.value as ImageResizeMode)}
        >
          {IMAGE_RESIZE_MODES.map((m) => (
            <option key={m} value={m}>
              {RESIZE_TEXT[m]}
              {m === DEFAULT_IMAGE_RESIZE ? " (default)" : ""}
            </option>
          ))}
        </select>
      </div>
      <div>
        <p className="text-sm font-medium">Augmentation</p>
        <p className="text-xs text-muted">
          Random changes to the training pictures of each batch, so the model learns what does not matter;
          validation, test and served pictures are never changed. Now: {summary}.
        </p>
      </div>
      <label className="flex items-center gap-2 text-sm">
        <input
          type="checkbox"
          checked={value.horizontal_flip}
          onChange={(e) => set({ horizontal_flip: e.target.checked })}
          className="size-4 accent-[var(--accent)]"
        />
        Mirror left to right (not for digits or text)
      </label>
      <div className="grid gap-x-4 gap-y-3 sm:grid-cols-2">
        <Slider
          label="Crop after padding"
          value={value.crop_padding}
          min={0}
          max={8}
          step={1}
          format={(v) => `${v} px`}
          onChange={(v) => set({ crop_padding: v })}
        />
        <Slider
          label="Rotate up to"
          value={value.rotation_degrees}
          min={0}
          max={30}
          step={1}
          format={(v) => `±${v}°`}
          onChange={(v) => set({ rotation_degrees: v })}
        />
        <Slider
          label="Shift up to"
          value={value.translate}
          min={0}
          max={0.25}
          step={0.01}
          format={(v) => `±${Math.round(v * 100)}%`}
          onChange={(v) => set({ translate: v })}
        />
        <Slider
          label="Colour jitter"
          value={rgb ? value.color_jitter : 0}
          min={0}
          max={0.5}
          step={0.05}
          format={(v) => `±${Math.round(v * 100)}%`}
          onChange={(v) => set({ color_jitter: v })}
          disabled={!rgb}
          hint={rgb ? undefined : "Grayscale Input: colour jitter does not apply."}
        />
      </div>
      {sample ? (
        <div>
          <p className="mb-1.5 text-xs text-muted">One picture as training batches might see it:</p>
          <ul className="flex gap-2 overflow-x-auto" data-testid="augmentation-preview">
            <li className="shrink-0 text-center">
              <PreviewTile src={sample} style={{}} />
              <span className="text-[11px] text-muted">original</span>
            </li>
            {variants.map((v) => (
              <li key={v.key} className="shrink-0 text-center">
                <PreviewTile src={sample} style={v.style} />
                <span className="text-[11px] text-muted">{v.caption}</span>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </fieldset>
  );
}

function PreviewTile({ src, style }: { src: string; style: React.CSSProperties }) {
  return (
    <div className="size-16 overflow-hidden rounded-md border border-border bg-black">
      {/* biome-ignore lint/performance/noImgElement: a data: URL thumbnail from the dataset's profile */}
      <img src={src} alt="" className="size-full object-contain [image-rendering:pixelated]" style={style} />
    </div>
  );
}
