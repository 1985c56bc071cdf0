/* compress.c - see compress.h. */
#include "compress.h"
#include "../../src/lib/util.h"

#include <stdlib.h>
#include <string.h>

#include "pagelab_codecs.h"
#ifdef HAVE_ZLIB
#include <zlib.h>
#endif
#ifdef HAVE_ZSTD
#include <zstd.h>
#endif

bool compress_have(enum input_codec c)
{
	(void)c; /* with neither library built in */
#ifdef HAVE_ZLIB
	if (c == CODEC_GZIP)
		return true;
#endif
#ifdef HAVE_ZSTD
	if (c == CODEC_ZSTD)
		return true;
#endif
	return false;
}

bool compress_buf(enum input_codec c, const uint8_t *src, size_t n, uint8_t **out, size_t *outlen)
{
	*out = NULL;
	*outlen = 0;
	(void)c;
	(void)src;
	(void)n;
#ifdef HAVE_ZLIB
	if (c == CODEC_GZIP) {
		z_stream zs;
		memset(&zs, 0, sizeof(zs));
		if (deflateInit2(&zs, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK)
			panic("zlib: deflateInit2 failed");
		size_t cap = deflateBound(&zs, (uLong)n);
		*out = xmalloc(cap);
		zs.next_in = (Bytef *)src;
		zs.avail_in = (uInt)n;
		zs.next_out = *out;
		zs.avail_out = (uInt)cap;
		if (deflate(&zs, Z_FINISH) != Z_STREAM_END)
			panic("zlib: deflate did not finish");
		*outlen = cap - zs.avail_out;
		deflateEnd(&zs);
		return true;
	}
#endif
#ifdef HAVE_ZSTD
	if (c == CODEC_ZSTD) {
		size_t cap = ZSTD_compressBound(n);
		*out = xmalloc(cap);
		*outlen = ZSTD_compress(*out, cap, src, n, 3);
		if (ZSTD_isError(*outlen))
			panic("zstd: %s", ZSTD_getErrorName(*outlen));
		return true;
	}
#endif
	return false;
}
