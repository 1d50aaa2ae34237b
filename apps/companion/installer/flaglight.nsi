; Flaglight Companion's Windows installer (decision 017, reference/packaging.md §4).
; Built by scripts/package.mjs: makensis -V2 -DVERSION=X.Y.Z installer/flaglight.nsi
; Per user, no admin rights: the program in %LOCALAPPDATA%\Programs\Flaglight, a Start-menu
; shortcut, a Run value (autostart; /NOAUTOSTART leaves it out), an uninstaller; /S is silent.
; The companion's own data (link token, settings, log) lives in %APPDATA%\Flaglight and is never
; touched here, so a reinstall keeps the link.
Unicode true
Target amd64-unicode                  ; a 64-bit stub: the x86 one installs nothing under wine64
!ifndef VERSION
  !define VERSION "0.0.0"
!endif
!define APP "Flaglight Companion"
!define EXE "flaglight-companion-win-x64.exe"
!define UNINSTKEY "Software\Microsoft\Windows\CurrentVersion\Uninstall\FlaglightCompanion"
!define RUNKEY "Software\Microsoft\Windows\CurrentVersion\Run"
Name "${APP}"
OutFile "../dist/flaglight-setup.exe"
RequestExecutionLevel user
InstallDir "$LOCALAPPDATA\Programs\Flaglight"
InstallDirRegKey HKCU "${UNINSTKEY}" "InstallLocation"
SetCompressor /SOLID lzma
BrandingText "${APP} ${VERSION}"
VIProductVersion "${VERSION}.0"       ; digits only: package.mjs refuses a version like 0.1.0-beta.1
VIAddVersionKey "ProductName" "${APP}"
VIAddVersionKey "CompanyName" "Flaglight"
VIAddVersionKey "LegalCopyright" "Flaglight"
VIAddVersionKey "FileDescription" "${APP} setup"
VIAddVersionKey "FileVersion" "${VERSION}"
VIAddVersionKey "ProductVersion" "${VERSION}"

!include "MUI2.nsh"
!include "FileFunc.nsh"
!include "LogicLib.nsh"
!include "Sections.nsh"

!insertmacro MUI_PAGE_COMPONENTS
!insertmacro MUI_PAGE_DIRECTORY
!insertmacro MUI_PAGE_INSTFILES
!define MUI_FINISHPAGE_RUN "$INSTDIR\${EXE}"
!define MUI_FINISHPAGE_RUN_PARAMETERS "--background"
!define MUI_FINISHPAGE_RUN_TEXT "Start ${APP} now"
!insertmacro MUI_PAGE_FINISH
!insertmacro MUI_UNPAGE_CONFIRM
!insertmacro MUI_UNPAGE_INSTFILES
!insertmacro MUI_LANGUAGE "English"

Section "!${APP}" SecMain
  SectionIn RO
  ; A running copy locks its file: stop it before replacing it.
  nsExec::Exec 'taskkill /F /IM "${EXE}"'
  Pop $0
  DeleteRegValue HKCU "${RUNKEY}" "${APP}"
  SetOutPath "$INSTDIR"
  File "../dist/${EXE}"
  WriteUninstaller "$INSTDIR\uninstall.exe"
  CreateDirectory "$SMPROGRAMS\Flaglight"
  CreateShortcut "$SMPROGRAMS\Flaglight\${APP}.lnk" "$INSTDIR\${EXE}" "--background"
  CreateShortcut "$SMPROGRAMS\Flaglight\Uninstall ${APP}.lnk" "$INSTDIR\uninstall.exe"
  WriteRegStr HKCU "${UNINSTKEY}" "DisplayName" "${APP}"
  WriteRegStr HKCU "${UNINSTKEY}" "DisplayVersion" "${VERSION}"
  WriteRegStr HKCU "${UNINSTKEY}" "Publisher" "Flaglight"
  WriteRegStr HKCU "${UNINSTKEY}" "InstallLocation" "$INSTDIR"
  WriteRegStr HKCU "${UNINSTKEY}" "DisplayIcon" "$INSTDIR\${EXE}"
  WriteRegStr HKCU "${UNINSTKEY}" "UninstallString" '"$INSTDIR\uninstall.exe"'
  WriteRegStr HKCU "${UNINSTKEY}" "QuietUninstallString" '"$INSTDIR\uninstall.exe" /S'
  WriteRegDWORD HKCU "${UNINSTKEY}" "NoModify" 1
  WriteRegDWORD HKCU "${UNINSTKEY}" "NoRepair" 1
  ${GetSize} "$INSTDIR" "/S=0K" $0 $1 $2
  WriteRegDWORD HKCU "${UNINSTKEY}" "EstimatedSize" $0
SectionEnd

Section "Start with Windows" SecAutostart
  WriteRegStr HKCU "${RUNKEY}" "${APP}" '"$INSTDIR\${EXE}" --background'
SectionEnd

Function .onInit
  ${GetParameters} $R0
  ClearErrors
  ${GetOptions} $R0 "/NOAUTOSTART" $R1
  ${IfNot} ${Errors}
    !insertmacro UnselectSection ${SecAutostart}
  ${EndIf}
FunctionEnd

Section "Uninstall"
  nsExec::Exec 'taskkill /F /IM "${EXE}"'
  Pop $0
  DeleteRegValue HKCU "${RUNKEY}" "${APP}"
  DeleteRegKey HKCU "${UNINSTKEY}"
  Delete "$SMPROGRAMS\Flaglight\${APP}.lnk"
  Delete "$SMPROGRAMS\Flaglight\Uninstall ${APP}.lnk"
  RMDir "$SMPROGRAMS\Flaglight"
  Delete "$INSTDIR\${EXE}"
  ; What the companion's updates leave beside it: the version before the last update, a download.
  Delete "$INSTDIR\${EXE}.previous"
  Delete "$INSTDIR\${EXE}.download"
  Delete "$INSTDIR\uninstall.exe"
  RMDir "$INSTDIR"                    ; only when empty
SectionEnd
