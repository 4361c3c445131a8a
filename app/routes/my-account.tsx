import { Outlet } from "@remix-run/react";

/** The account area: its pages render inside. */
export default function AccountLayout() {
  return <Outlet />;
}
