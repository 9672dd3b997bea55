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
#endif
