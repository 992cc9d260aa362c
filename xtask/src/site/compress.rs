//! Gzip and brotli: the sizes the budget counts, and the copies `tabula serve` sends by
//! `Accept-Encoding` (Vercel compresses by itself).

use std::path::{Path, PathBuf};

use anyhow::Result;

use crate::bundle_cache;

/// libdeflate's slowest, smallest level (zlib's best is its 9).
const GZIP_LEVEL: i32 = 12;
const GZIP_SETTINGS: &str = "libdeflate 12";

fn gzip(bytes: &[u8]) -> Result<Vec<u8>> {
    let level = libdeflater::CompressionLvl::new(GZIP_LEVEL).map_err(|e| anyhow::anyhow!("{e:?}"))?;
    let mut compressor = libdeflater::Compressor::new(level);
    let mut out = vec![0; compressor.gzip_compress_bound(bytes.len())];
    let written = compressor.gzip_compress(bytes, &mut out).map_err(|e| anyhow::anyhow!("gzip: {e}"))?;
    out.truncate(written);
    Ok(out)
}

/// The size of `bytes` gzipped as `tabula serve` sends them: what the budget counts. The copy is
/// kept, so the site's build compresses each file once.
pub fn gzipped_size(bytes: &[u8]) -> Result<usize> {
    let kept = bundle_cache::compressed(bytes, GZIP_SETTINGS, gzip)?;
    Ok(usize::try_from(std::fs::metadata(kept)?.len())?)
}

const BROTLI_QUALITY: i32 = 11;
const BROTLI_WINDOW: i32 = 22;

fn brotli(bytes: &[u8]) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    let params =
        brotli::enc::BrotliEncoderParams { quality: BROTLI_QUALITY, lgwin: BROTLI_WINDOW, ..Default::default() };
    brotli::BrotliCompress(&mut &bytes[..], &mut out, &params)?;
    Ok(out)
}

/// Gzip and brotli copies of every compressible file, which `tabula serve` sends by
/// `Accept-Encoding` (Vercel compresses by itself). Kept between builds by content
/// (`bundle_cache::compressed`), and made on both cores.
/// A way to compress a file's bytes.
type Compressor = fn(&[u8]) -> Result<Vec<u8>>;

pub fn precompress(dir: &Path) -> Result<()> {
    let mut files = Vec::new();
    compressible_files(dir, &mut files)?;
    let brotli_settings = format!("brotli {BROTLI_QUALITY} {BROTLI_WINDOW}");
    let copies: [(&str, &str, Compressor); 2] = [("gz", GZIP_SETTINGS, gzip), ("br", &brotli_settings, brotli)];
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    // Each thread takes every `threads`-th file and returns the kept copies it used.
    let used = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|first| {
                let (files, copies) = (&files, &copies);
                scope.spawn(move || -> Result<Vec<PathBuf>> {
                    let mut used = Vec::new();
                    for path in files.iter().skip(first).step_by(threads) {
                        let bytes = std::fs::read(path)?;
                        let name = path.file_name().expect("a file").to_string_lossy().into_owned();
                        for (ext, settings, compress) in copies {
                            let kept = bundle_cache::compressed(&bytes, settings, *compress)?;
                            std::fs::copy(&kept, path.with_file_name(format!("{name}.{ext}")))?;
                            used.push(kept);
                        }
                    }
                    Ok(used)
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|worker| worker.join().expect("a compressing thread panicked"))
            .collect::<Result<Vec<_>>>()
    })?;
    bundle_cache::forget_compressed_but(&used.concat())
}

fn compressible_files(dir: &Path, files: &mut Vec<PathBuf>) -> Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            compressible_files(&path, files)?;
            continue;
        }
        let compressible = ["html", "js", "wasm", "css", "svg", "xml", "txt", "json"];
        if path.extension().and_then(|e| e.to_str()).is_some_and(|e| compressible.contains(&e)) {
            files.push(path);
        }
    }
    Ok(())
}
