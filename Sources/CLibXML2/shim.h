#ifndef ASSETC_CLIBXML2_SHIM_H
#define ASSETC_CLIBXML2_SHIM_H
#include <libxml/xmlversion.h>
/* Debian's libxml2 is built with ICU, and its encoding.h then includes ICU's headers, whose
   UErrorCode clashes with the copy Foundation carries. assetc never touches the encoding-handler
   fields that depend on this macro (only pointers to the struct), so hiding ICU here is safe. */
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/xmlerror.h>
#include <libxml/entities.h>
#include <stdarg.h>

/* libxml2 reports a document whose bytes do not decode in its declared encoding through the
   generic error handler, which writes "encoding error" lines to stderr even with
   XML_PARSE_NOERROR. Swift cannot define a C variadic function, so the silent handler is here;
   the setting is per thread in Debian's threaded libxml2. */
static void assetc_xml_ignore(void *context, const char *message, ...) {
    (void)context;
    (void)message;
}

static inline void assetc_xml_silence_generic_errors(void) {
    xmlSetGenericErrorFunc(NULL, assetc_xml_ignore);
}
#endif
