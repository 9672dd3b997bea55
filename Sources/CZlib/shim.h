#ifndef ASSETC_CZLIB_SHIM_H
#define ASSETC_CZLIB_SHIM_H
#include <zlib.h>
#include <string.h>

/* Inflates a zlib stream (RFC 1950) into exactly `expected` bytes, reading its deflate body raw so
   the trailing Adler-32 is not computed (FBX arrays are checked by their size; the checksum was a
   tenth of reading a large file). Returns 0 when the stream ends at exactly `expected` bytes, 1
   when it holds more, 2 when it ends short (*produced says how much), and a negative zlib status
   when it is damaged. inflateInit2 is a macro, which Swift cannot call. */
static inline int assetc_inflate_exact(unsigned char *out, size_t expected, const unsigned char *in, size_t size, size_t *produced) {
    *produced = 0;
    if (size < 2 || (in[0] & 0x0F) != 8 || ((in[0] << 8) | in[1]) % 31 != 0 || (in[1] & 0x20)) return Z_DATA_ERROR;
    z_stream stream;
    memset(&stream, 0, sizeof stream);
    if (inflateInit2(&stream, -MAX_WBITS) != Z_OK) return Z_MEM_ERROR;
    stream.next_in = (Bytef *)(in + 2);
    size_t left_in = size - 2, left_out = expected;
    int status = Z_OK;
    unsigned char spare;
    while (status == Z_OK) {
        unsigned int take_in = left_in > 0x40000000u ? 0x40000000u : (unsigned int)left_in;
        unsigned int take_out = left_out > 0x40000000u ? 0x40000000u : (unsigned int)left_out;
        stream.avail_in = take_in;
        if (take_out == 0) { stream.next_out = &spare; stream.avail_out = 1; }
        else { stream.next_out = out + (expected - left_out); stream.avail_out = take_out; }
        status = inflate(&stream, Z_NO_FLUSH);
        int progressed = stream.avail_in != take_in || (take_out == 0 ? stream.avail_out == 0 : stream.avail_out != take_out);
        left_in -= take_in - stream.avail_in;
        if (take_out == 0) {
            if (stream.avail_out == 0) { inflateEnd(&stream); *produced = expected + 1; return 1; }
        } else {
            left_out -= take_out - stream.avail_out;
        }
        if (status == Z_BUF_ERROR && (left_in == 0 || !progressed)) break;
        if (status == Z_BUF_ERROR) status = Z_OK;
    }
    inflateEnd(&stream);
    *produced = expected - left_out;
    if (status == Z_STREAM_END) return left_out == 0 ? 0 : 2;
    if (status == Z_OK || status == Z_BUF_ERROR) return 2;  /* the input ran out before the stream's end */
    return status < 0 ? status : Z_DATA_ERROR;
}
/* Inflates a gzip stream (RFC 1952: SPZ v1-v3) into at most `capacity` bytes. Returns 0 when the
   stream ended within them (*produced says how many), 1 when it holds more than `capacity`, 2 when
   the input ends before the stream does, and a negative zlib status when it is damaged. Only the
   first member is read, as Niantic's loader reads it. */
static inline int assetc_gunzip(unsigned char *out, size_t capacity, const unsigned char *in, size_t size, size_t *produced) {
    *produced = 0;
    z_stream stream;
    memset(&stream, 0, sizeof stream);
    if (inflateInit2(&stream, 16 + MAX_WBITS) != Z_OK) return Z_MEM_ERROR;
    size_t left_in = size, done = 0;
    stream.next_in = (unsigned char *)in;
    int status = Z_OK;
    unsigned char spare;
    while (status == Z_OK) {
        unsigned int take_in = left_in > 0x40000000u ? 0x40000000u : (unsigned int)left_in;
        size_t room = capacity - done;
        unsigned int take_out = room > 0x40000000u ? 0x40000000u : (unsigned int)room;
        stream.avail_in = take_in;
        if (take_out == 0) { stream.next_out = &spare; stream.avail_out = 1; }
        else { stream.next_out = out + done; stream.avail_out = take_out; }
        status = inflate(&stream, Z_NO_FLUSH);
        left_in -= take_in - stream.avail_in;
        if (take_out == 0) {
            if (stream.avail_out == 0) { inflateEnd(&stream); *produced = done; return 1; }
        } else {
            done += take_out - stream.avail_out;
        }
        if (status == Z_BUF_ERROR) {
            if (left_in == 0) break;
            status = Z_OK;
        }
    }
    inflateEnd(&stream);
    *produced = done;
    if (status == Z_STREAM_END) return 0;
    if (status == Z_OK || status == Z_BUF_ERROR) return 2;
    return status < 0 ? status : Z_DATA_ERROR;
}
#endif
